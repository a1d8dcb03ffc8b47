import type { Table } from '../dictionary/model.js';
import { ApiError, forbidden } from '../errors.js';

/**
 * Tables that documents maintain as they are processed: the ledger (Fact_Acct), the stock and its
 * history (M_StorageOnHand, M_StorageReservation, M_Transaction, M_CostDetail, M_CostHistory) and the matching of
 * orders, receipts and invoices (M_MatchPO, M_MatchInv). A row written by hand would leave them
 * disagreeing with the documents (a one-sided debit, stock without a document or a value), so
 * the record API only reads them; the document engine writes them in its own statements. Physical
 * (lower-case) table names; a table not in the dictionary yet is simply never met.
 */
export const DOCUMENT_MAINTAINED_TABLES: ReadonlySet<string> = new Set([
  'fact_acct',
  'm_storageonhand',
  'm_storagereservation',
  'm_transaction',
  'm_costdetail',
  'm_costhistory',
  'm_matchpo',
  'm_matchinv',
]);

export const isDocumentMaintained = (table: Table): boolean => DOCUMENT_MAINTAINED_TABLES.has(table.dbName);

/**
 * Refuses a create, update or delete of a row that only documents write: 403 with the titles the
 * original gives a write the role may not make ("Update error", "Delete error"). A delete that
 * would take such rows along with their parent (a product with its stock) is refused as a parent
 * still referenced: 409.
 */
export function assertNotDocumentMaintained(table: Table, action: 'create' | 'update' | 'delete', withParent = false): void {
  if (!isDocumentMaintained(table)) return;
  if (withParent) throw new ApiError(409, 'Delete error', `The record is still referenced by ${table.name} records, which only documents write`);
  const verb = action === 'delete' ? 'deleted' : action === 'create' ? 'created' : 'changed';
  throw forbidden(
    action === 'delete' ? 'Delete error' : 'Update error',
    `${table.name} records are written only by the documents that post or move them; they cannot be ${verb} through the API`,
  );
}
