import type { Tx } from '../db/types.js';
import type { ModelEvent, Row } from '../events/model-events.js';
import type { OperationMemo } from '../events/operation-memo.js';
import { idOf, invalid } from './row-values.js';

/**
 * The document types a document table takes, as the original's column validation rules give them
 * (C_DocType.DocBaseType IN (...) AND C_DocType.IsSOTrx='@IsSOTrx@'): the base types of its
 * types, and the column whose value must agree with the type's IsSOTrx. Shipments have no side
 * rule: as in the original's MInOut, the base type gives the direction and the document's side
 * (its order's) the partner, so an MM Shipment type on a purchase order's document is a vendor
 * return (V-) and an MM Receipt type on a sales one a customer return (C+).
 */
export interface DocumentTypeRule {
  /** Columns naming the document's type (physical names), the target first where there is one. */
  columns: readonly string[];
  /** DocBaseType values (list 183) of the types the table takes. */
  baseTypes: readonly string[];
  /** The base types whose client default a new document of each side gets when it names no type. */
  defaults: { sales: string; purchase: string };
  /** The column holding the document's side, compared with the type's IsSOTrx; null when types have no side. */
  side: 'issotrx' | 'isreceipt' | null;
}

/** Document tables and the document types they take. Physical (lower-case) table names. */
export const DOCUMENT_TYPE_RULES: ReadonlyMap<string, DocumentTypeRule> = new Map<string, DocumentTypeRule>([
  ['c_order', { columns: ['c_doctypetarget_id', 'c_doctype_id'], baseTypes: ['SOO', 'POO'], defaults: { sales: 'SOO', purchase: 'POO' }, side: 'issotrx' }],
  [
    'c_invoice',
    { columns: ['c_doctypetarget_id', 'c_doctype_id'], baseTypes: ['ARI', 'ARC', 'API', 'APC'], defaults: { sales: 'ARI', purchase: 'API' }, side: 'issotrx' },
  ],
  ['m_inout', { columns: ['c_doctype_id'], baseTypes: ['MMS', 'MMR'], defaults: { sales: 'MMS', purchase: 'MMR' }, side: null }],
  ['c_payment', { columns: ['c_doctype_id'], baseTypes: ['ARR', 'APP'], defaults: { sales: 'ARR', purchase: 'APP' }, side: 'isreceipt' }],
  ['c_allocationhdr', { columns: ['c_doctype_id'], baseTypes: ['CMA'], defaults: { sales: 'CMA', purchase: 'CMA' }, side: null }],
  ['gl_journalbatch', { columns: ['c_doctype_id'], baseTypes: ['GLJ'], defaults: { sales: 'GLJ', purchase: 'GLJ' }, side: null }],
  ['gl_journal', { columns: ['c_doctype_id'], baseTypes: ['GLJ'], defaults: { sales: 'GLJ', purchase: 'GLJ' }, side: null }],
  ['c_bankstatement', { columns: ['c_doctype_id'], baseTypes: ['CMB'], defaults: { sales: 'CMB', purchase: 'CMB' }, side: null }],
  ['c_depositbatch', { columns: ['c_doctype_id'], baseTypes: ['CMB'], defaults: { sales: 'CMB', purchase: 'CMB' }, side: null }],
  ['m_movement', { columns: ['c_doctype_id'], baseTypes: ['MMM'], defaults: { sales: 'MMM', purchase: 'MMM' }, side: null }],
  ['m_inventory', { columns: ['c_doctype_id'], baseTypes: ['MMI'], defaults: { sales: 'MMI', purchase: 'MMI' }, side: null }],
]);

/** The rule of a document table (one of DOCUMENT_TYPE_RULES). */
export function documentTypeRule(table: string): DocumentTypeRule {
  const rule = DOCUMENT_TYPE_RULES.get(table);
  if (!rule) throw new Error(`${table} has no document type rule`);
  return rule;
}

/** A C_DocType row as documents read it. */
export interface DocTypeRow {
  c_doctype_id: number;
  ad_client_id: number;
  name: string;
  docbasetype: string;
  docsubtypeso: string | null;
  issotrx: string;
  gl_category_id: number | null;
  iscanbereactivated: string | null;
  isoverwriteseqoncomplete: string | null;
  isoverwritedateoncomplete: string | null;
  definitesequence_id: number | null;
  /** A move of this type travels: prepare creates its confirmation (M_MovementConfirm). */
  isintransit: string | null;
}

/** The columns of DocTypeRow. */
export const DOC_TYPE_COLUMNS = [
  'c_doctype_id', 'ad_client_id', 'name', 'docbasetype', 'docsubtypeso', 'issotrx', 'gl_category_id', 'iscanbereactivated',
  'isoverwriteseqoncomplete', 'isoverwritedateoncomplete', 'definitesequence_id', 'isintransit',
] as const satisfies readonly (keyof DocTypeRow)[];

/** The memo key of a document type's row (see documentTypeRow). */
export const docTypeMemoKey = (id: number): string => `row:${id}`;

/** A document type, read once per write operation (rules, checks and actions share it). */
export function documentTypeRow(tx: Tx, memo: OperationMemo, id: number): Promise<DocTypeRow | null> {
  return memo.get('c_doctype', docTypeMemoKey(id), async () => {
    const { rows } = await tx.query<DocTypeRow>(`SELECT ${DOC_TYPE_COLUMNS.join(', ')} FROM c_doctype WHERE c_doctype_id = $1`, [id], { name: 'doc_engine_doctype' });
    return rows[0] ?? null;
  });
}

const sideName = (side: 'issotrx' | 'isreceipt', yes: boolean): string => (side === 'isreceipt' ? (yes ? 'receipt' : 'payment') : yes ? 'sales' : 'purchase');

/**
 * Why a document type does not fit a document of `tableName` (its base type is not one the table
 * takes, or its IsSOTrx is not the document's side), or null when it fits.
 */
export function documentTypeMisfit(tableName: string, rule: DocumentTypeRule, dt: DocTypeRow, row: Row): string | null {
  if (!rule.baseTypes.includes(String(dt.docbasetype))) {
    return `document type ${dt.name} (${String(dt.docbasetype)}) is not a document type of ${tableName}, which takes ${rule.baseTypes.join(', ')}`;
  }
  if (rule.side && (row[rule.side] === 'Y' || row[rule.side] === 'N') && (dt.issotrx === 'Y') !== (row[rule.side] === 'Y')) {
    const typeSide = sideName(rule.side, dt.issotrx === 'Y');
    const docSide = sideName(rule.side, row[rule.side] === 'Y');
    return `document type ${dt.name} is a ${typeSide} document type and the ${tableName} is a ${docSide} document`;
  }
  return null;
}

/**
 * A document's type columns must name a type of its table and side: checked whenever a document
 * is created, or its type or side changes (after the rules that fill them). 400 naming the column.
 */
export async function documentTypeBeforeSave(e: ModelEvent): Promise<void> {
  const rule = DOCUMENT_TYPE_RULES.get(e.table.dbName);
  if (!rule) return;
  for (const column of rule.columns) {
    const col = e.table.byName.get(column);
    if (!col) continue;
    if (e.type === 'before-change' && !e.changed.has(column) && !(rule.side && e.changed.has(rule.side))) continue;
    const id = idOf(e.row[column]);
    if (id === null) continue;
    const dt = await documentTypeRow(e.tx, e.memo, id);
    // An unknown type, or one of another client, is left to the reference check (400 Foreign ID
    // not found), which names nothing of the other client.
    const clientId = Number(e.row.ad_client_id ?? e.auth.clientId);
    if (!dt || (Number(dt.ad_client_id) !== 0 && Number(dt.ad_client_id) !== clientId)) continue;
    const misfit = documentTypeMisfit(e.table.name, rule, dt, e.row);
    if (misfit) throw invalid(`${misfit[0]!.toUpperCase()}${misfit.slice(1)} (column ${col.name})`);
  }
}
