import type { ModelEvent, ModelEvents } from '../../events/model-events.js';
import type { ProcessImplementations } from '../../processes/runner.js';
import { CLOSE_RFQ_CLASS, CREATE_PO_FROM_RFQ_CLASS, CREATE_RESPONSES_CLASS, RANK_RESPONSES_CLASS } from '../../seed/rfq-seed.js';
import { rfqBeforeSave, rfqLineBeforeSave, rfqLineQtyBeforeSave, subscriberBeforeNew } from './rfq-rules.js';
import { responseBeforeSave, responseLineBeforeSave, responseQtyBeforeSave } from './response-rules.js';
import { createRfqResponses } from './create-responses.js';
import { rankRfqResponses } from './rank-responses.js';
import { createPoFromRfq } from './create-po.js';
import { closeRfq } from './close-rfq.js';

/** The rules of requests for quotation and their responses. */
export function registerRfq(events: ModelEvents): void {
  const rules: [string, (e: ModelEvent) => Promise<void>][] = [
    ['c_rfq', rfqBeforeSave],
    ['c_rfqline', rfqLineBeforeSave],
    ['c_rfqlineqty', rfqLineQtyBeforeSave],
    ['c_rfqresponse', responseBeforeSave],
    ['c_rfqresponseline', responseLineBeforeSave],
    ['c_rfqresponselineqty', responseQtyBeforeSave],
  ];
  for (const type of ['before-new', 'before-change'] as const) for (const [table, rule] of rules) events.on(type, table, rule);
  events.on('before-new', 'c_rfq_topicsubscriber', subscriberBeforeNew);
}

export function registerRfqProcesses(impls: ProcessImplementations): void {
  impls.register(CREATE_RESPONSES_CLASS, createRfqResponses);
  impls.register(RANK_RESPONSES_CLASS, rankRfqResponses);
  impls.register(CREATE_PO_FROM_RFQ_CLASS, createPoFromRfq);
  impls.register(CLOSE_RFQ_CLASS, closeRfq);
}
