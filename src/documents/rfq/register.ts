import type { ModelEvents } from '../../events/model-events.js';
import type { ProcessImplementations } from '../../processes/runner.js';
import { CLOSE_RFQ_CLASS, CREATE_PO_FROM_RFQ_CLASS, CREATE_RESPONSES_CLASS, RANK_RESPONSES_CLASS } from '../../seed/rfq-seed.js';
import { registerRfqRules } from './rfq-rules.js';
import { createRfqResponses } from './create-responses.js';
import { rankRfqResponses } from './rank-responses.js';
import { createPoFromRfq } from './create-po.js';
import { closeRfq } from './close-rfq.js';

/** Requests for quotation: the rules of their records. */
export function registerRfq(events: ModelEvents): void {
  registerRfqRules(events);
}

export function registerRfqProcesses(impls: ProcessImplementations): void {
  impls.register(CREATE_RESPONSES_CLASS, createRfqResponses);
  impls.register(RANK_RESPONSES_CLASS, rankRfqResponses);
  impls.register(CREATE_PO_FROM_RFQ_CLASS, createPoFromRfq);
  impls.register(CLOSE_RFQ_CLASS, closeRfq);
}
