import type { Queryable } from '../../db/types.js';
import type { Row } from '../../events/model-events.js';
import { insertRecord } from '../../records/write/persist.js';
import { createWriteContext } from '../../records/write/write-context.js';
import type { ProcessCall } from '../../processes/runner.js';
import { badRequest } from '../../errors.js';
import { runDocumentAction } from '../engine/engine.js';
import { clientSchema, type ClientSchema } from '../gl-journal/journal-rules.js';

/** A line of a journal a process writes: an account (element value) with its debit or credit. */
export interface ProcessJournalLine {
  orgId: number;
  accountId: number;
  dr: string;
  cr: string;
  description: string;
  bpartnerId?: number | null;
}

export interface ProcessJournal {
  orgId: number;
  description: string;
  dateAcct: string;
  docTypeId: number | null;
  conversionTypeId?: number | null;
  reversalOf?: number;
  lines: ProcessJournalLine[];
}

/**
 * Writes a journal in the schema's currency through the record engine (so that it is defaulted,
 * numbered and totalled as one created over the API) and completes it. Returns the completed
 * journal; a refusal of its completion fails the process, which then writes nothing.
 */
export async function completedJournal(c: ProcessCall, j: ProcessJournal): Promise<Row> {
  const dict = c.s.dictionary.current;
  const table = dict.byName.get('gl_journal')!;
  const wc = createWriteContext(dict, c.auth, c.tx, c.s.events);
  const created = await insertRecord(wc, table, {
    AD_Org_ID: j.orgId,
    Description: j.description,
    DateAcct: j.dateAcct,
    DateDoc: j.dateAcct,
    ...(j.docTypeId ? { C_DocType_ID: j.docTypeId } : {}),
    ...(j.conversionTypeId ? { C_ConversionType_ID: j.conversionTypeId } : {}),
    CurrencyRate: 1,
    ...(j.reversalOf ? { Reversal_ID: j.reversalOf } : {}),
    GL_JournalLine: j.lines.map((l) => ({
      AD_Org_ID: l.orgId,
      Account_ID: l.accountId,
      AmtSourceDr: l.dr,
      AmtSourceCr: l.cr,
      Description: l.description,
      ...(l.bpartnerId ? { C_BPartner_ID: l.bpartnerId } : {}),
    })),
  });
  await wc.deferred.flush();
  const done = await runDocumentAction(wc, table, String(created.row.gl_journal_id), 'CO');
  return done.row;
}

/** The schema a period-end process works in: the one named, else the client's. */
export async function schemaOfCall(c: ProcessCall, q: Queryable): Promise<ClientSchema> {
  const named = c.param('C_AcctSchema_ID')?.value;
  const schema = await clientSchema(q, c.auth.clientId);
  if (!schema) throw badRequest('Invalid parameter', 'The client has no accounting schema');
  if (typeof named === 'number' && named !== schema.schemaId) throw badRequest('Invalid parameter', `Accounting schema ${named} is not the client's (C_AcctSchema_ID)`);
  return schema;
}

/** The account (C_ElementValue_ID) of a combination column of the schema's defaults or GL accounts, or null. */
export async function schemaAccount(q: Queryable, schemaId: number, table: 'c_acctschema_default' | 'c_acctschema_gl', column: string): Promise<number | null> {
  const { rows } = await q.query<{ id: number | null }>(
    `SELECT v.account_id AS id FROM ${table} s JOIN c_validcombination v ON v.c_validcombination_id = s.${column} WHERE s.c_acctschema_id = $1 AND s.isactive = 'Y' LIMIT 1`,
    [schemaId],
  );
  return rows[0]?.id ? Number(rows[0].id) : null;
}
