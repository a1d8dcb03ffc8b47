import { setActionGate } from '../documents/engine/engine.js';
import type { ModelEvents } from '../events/model-events.js';
import { watchWorkflowTables } from './workflow-definitions.js';
import { documentWorkflowGate } from './workflow-engine.js';

/** Document actions go through their document-process workflow when it has a user node on their path. */
export function registerWorkflowEngine(events: ModelEvents): void {
  watchWorkflowTables(events);
  setActionGate(documentWorkflowGate);
}
