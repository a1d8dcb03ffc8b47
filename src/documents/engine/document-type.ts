import type { Table } from '../../dictionary/model.js';
import { ApiError } from '../../errors.js';
import type { Row } from '../../events/model-events.js';
import type { WriteContext } from '../../records/write/write-context.js';
import type { DocAction, DocStatus } from './doc-status.js';

/** One document being processed: its header (locked), the action and what the action changes. */
export interface DocumentContext {
  wc: WriteContext;
  table: Table;
  /** The header as it is now; handlers read it, and change it only through set(). */
  row: Row;
  /** The action requested (CO also runs prepare first). */
  action: DocAction;
  /** Header columns the action changes (physical names), written with the new status. */
  changes: Row;
  /** Process messages, joined into "doc-processmsg". */
  messages: string[];
  /** The document was created by the same write operation: nothing can be under way on it yet. */
  newRecord?: boolean;
}

/**
 * What one document type does on each action. A handler refuses by throwing refuse(); anything
 * it wrote rolls back with the request. Actions a type leaves out are not available for it.
 */
export interface DocumentType {
  /** Physical header table name. */
  table: string;
  /** Detail tables whose Processed flag follows the header's, with their link column. */
  details: readonly { table: string; link: string }[];
  /** Checks and reservations before completion; the document then is In Progress. */
  prepare(d: DocumentContext): Promise<void>;
  /** Completes a prepared document; returns the status it ends in (CO, or WP / IP when it waits). */
  complete(d: DocumentContext): Promise<DocStatus>;
  void(d: DocumentContext): Promise<void>;
  close?(d: DocumentContext): Promise<void>;
  reactivate?(d: DocumentContext): Promise<void>;
  reverseCorrect?(d: DocumentContext): Promise<void>;
  reverseAccrual?(d: DocumentContext): Promise<void>;
  /** A reason the action is not available for this document (beyond the status rules), or null. */
  refusal?(d: DocumentContext): Promise<string | null>;
  /**
   * The type's actions (and their event handlers) change the document's own header only through
   * `changes`, never by a statement of their own: the engine's header writes then answer just the
   * columns they set, and the rest of the header is the row already held (a wide header's every
   * column comes back once, with the locked read, instead of again with each write).
   */
  headerThroughChanges?: boolean;
  /**
   * Complete of a draft prepares it first; neither the complete step nor any handler reads the
   * header's status or stamps from the database in between (they read the row held): then the
   * header is written once, In Progress and Completed together, with the prepare's changes too.
   * The after-prepare handlers get the header as the prepare's own write would have left it.
   */
  oneHeaderWrite?: boolean;
}

/** A refused or failed action: the status and action are named by the engine. */
export class DocumentRefusal extends Error {}

export const refuse = (reason: string): DocumentRefusal => new DocumentRefusal(reason);

/** The answer to a refused action: 400 naming the document, its status, the action and the reason. */
export function refusalError(table: Table, row: Row, status: string, action: string, reason: string): ApiError {
  const no = row.documentno ? ` ${String(row.documentno)}` : '';
  return new ApiError(400, 'Failed Processing Document', `${table.name}${no} in status ${status}: action ${action} refused: ${reason}`);
}
