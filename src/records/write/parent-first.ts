import { orgWritable } from '../../access/access.js';
import { ident } from '../../db/sql.js';
import { forbidden } from '../../errors.js';
import type { WriteContext } from './write-context.js';

type Row = Record<string, unknown>;

interface ParentLink {
  parent: string;
  key: string;
  link: string;
}

/** Detail tables whose parent row is locked before their own rows (see lockParentFirst). */
const PARENT_FIRST = new Map<string, ParentLink>();

/**
 * Writes of a detail row lock its parent first: document rules lock the header when a line
 * changes, and a header change writes its lines, so locking always header before line keeps a
 * concurrent change of a line and of its header from deadlocking. The same read checks that the
 * role may write the parent: a line belongs to its document, whatever organisation it names.
 */
export function lockParentFirst(child: string, parent: string, parentKey: string, link: string): void {
  PARENT_FIRST.set(child.toLowerCase(), { parent: parent.toLowerCase(), key: parentKey.toLowerCase(), link: link.toLowerCase() });
}

/** 403 unless the role may write the parent's client and organisation. */
function assertParentWritable(wc: WriteContext, first: ParentLink, parent: Row | undefined): void {
  if (!parent) return;
  const clientId = Number(parent.ad_client_id);
  const orgId = Number(parent.ad_org_id);
  const name = wc.dict.byName.get(first.parent)?.name ?? first.parent;
  if (clientId !== wc.auth.clientId) throw forbidden('Access denied', `The ${name} belongs to another tenant`);
  if (!orgWritable(wc.auth, orgId)) throw forbidden('Access denied', `The ${name} belongs to organization ${orgId}, which this role may not write`);
}

/**
 * Before a detail row is changed or deleted: its parent locked and its organisation checked, in
 * one statement. `cond` selects the detail row (alias t) with `values`.
 */
export async function lockParentOfRow(wc: WriteContext, table: string, cond: string, values: unknown[]): Promise<void> {
  const first = PARENT_FIRST.get(table);
  if (!first) return;
  const { rows } = await wc.tx.query<Row>(
    `SELECT p.ad_client_id, p.ad_org_id FROM ${ident(first.parent)} p WHERE p.${ident(first.key)} = (SELECT t.${ident(first.link)} FROM ${ident(table)} t WHERE ${cond}) FOR UPDATE`,
    values,
  );
  assertParentWritable(wc, first, rows[0]);
}

/**
 * Before a new detail row is written without its parent at hand (a line posted on its own): its
 * parent locked and its organisation checked, once per parent and write operation.
 */
export async function lockParentOfNewRow(wc: WriteContext, table: string, row: Row): Promise<void> {
  const first = PARENT_FIRST.get(table);
  const parentId = first ? row[first.link] : undefined;
  if (!first || parentId === undefined || parentId === null) return;
  const parent = await wc.memo.get(first.parent, `parent-first:${String(parentId)}`, async () => {
    const { rows } = await wc.tx.query<Row>(`SELECT ad_client_id, ad_org_id FROM ${ident(first.parent)} WHERE ${ident(first.key)} = $1 FOR UPDATE`, [parentId]);
    return rows[0];
  });
  assertParentWritable(wc, first, parent);
}
