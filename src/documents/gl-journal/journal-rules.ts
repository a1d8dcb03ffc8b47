import type { Queryable } from '../../db/types.js';
import type { ModelEvent, PrepareNewEvent, Row } from '../../events/model-events.js';
import { conversionRate } from '../accounting/conversion.js';
import { defaultDocTypeOf } from '../inout-rules.js';
import { mul, round, toText } from '../decimal.js';
import { fillEmpty, fillUnset, idOf, invalid, isEmptyValue, todayDate } from '../row-values.js';

const clientOf = (e: ModelEvent): number => Number(e.row.ad_client_id ?? e.auth.clientId);

/** The client's accounting schema (its first one, as ad_clientinfo names it), its currency and that currency's precision. */
export interface ClientSchema {
  schemaId: number;
  currencyId: number;
  precision: number;
}

export async function clientSchema(q: Queryable, clientId: number): Promise<ClientSchema | null> {
  const { rows } = await q.query<{ id: number; currency: number; precision: number }>(
    `SELECT s.c_acctschema_id AS id, s.c_currency_id AS currency, COALESCE(c.stdprecision, 2)::int AS precision
       FROM c_acctschema s LEFT JOIN c_currency c ON c.c_currency_id = s.c_currency_id
      WHERE s.ad_client_id = $1 AND s.isactive = 'Y'
      ORDER BY CASE WHEN s.c_acctschema_id = (SELECT ci.c_acctschema1_id FROM ad_clientinfo ci WHERE ci.ad_client_id = $1) THEN 0 ELSE 1 END, s.c_acctschema_id LIMIT 1`,
    [clientId],
    { name: 'gl_client_schema' },
  );
  const r = rows[0];
  return r ? { schemaId: Number(r.id), currencyId: Number(r.currency), precision: Number(r.precision) } : null;
}

/** The client's standard period holding a date, or null. */
export async function periodIdOf(q: Queryable, clientId: number, date: unknown): Promise<number | null> {
  const { rows } = await q.query<{ id: number }>(
    `SELECT c_period_id AS id FROM c_period WHERE ad_client_id = $1 AND isactive = 'Y' AND COALESCE(periodtype, 'S') = 'S'
        AND startdate <= $2::timestamp AND enddate >= date_trunc('day', $2::timestamp) ORDER BY startdate DESC LIMIT 1`,
    [clientId, date],
    { name: 'gl_period_of_date' },
  );
  return rows[0] ? Number(rows[0].id) : null;
}

/** The rate from a journal's currency to its schema's on its accounting date (1 in the schema's currency). */
async function rateOf(e: ModelEvent, schema: ClientSchema): Promise<string> {
  const currency = idOf(e.row.c_currency_id) ?? schema.currencyId;
  if (currency === schema.currencyId) return '1';
  const found = await conversionRate(e.tx, currency, schema.currencyId, idOf(e.row.c_conversiontype_id), e.row.dateacct, clientOf(e));
  if ('missing' in found) throw invalid(`${found.missing[0]!.toUpperCase()}${found.missing.slice(1)} (column CurrencyRate)`);
  return found.rate.multiply;
}

/** The client's default conversion type. */
async function defaultConversionType(e: ModelEvent): Promise<number | null> {
  const { rows } = await e.tx.query<{ id: number }>(
    `SELECT c_conversiontype_id AS id FROM c_conversiontype WHERE isdefault = 'Y' AND isactive = 'Y' AND ad_client_id IN (0, $1) ORDER BY ad_client_id DESC LIMIT 1`,
    [clientOf(e)],
  );
  return rows[0] ? Number(rows[0].id) : null;
}

/**
 * New journals and batches name their document type before they are numbered, so that the GL
 * Journal type's sequence numbers them (as the original's): the batch's type for a journal of a
 * batch, else the client's default GLJ type.
 */
export async function journalTypesBeforeNumbers(e: PrepareNewEvent): Promise<void> {
  for (const row of e.rows) {
    if (idOf(row.c_doctype_id) !== null) continue;
    const batchId = e.table.dbName === 'gl_journal' ? idOf(row.gl_journalbatch_id) : null;
    const clientId = Number(row.ad_client_id ?? e.auth.clientId);
    if (batchId !== null) {
      const { rows } = await e.tx.query<{ id: number | null }>('SELECT c_doctype_id AS id FROM gl_journalbatch WHERE gl_journalbatch_id = $1 AND ad_client_id = $2', [batchId, clientId]);
      if (rows[0]?.id) {
        row.c_doctype_id = Number(rows[0].id);
        continue;
      }
    }
    const id = await defaultDocTypeOf(e.tx, 'GLJ', false, clientId);
    if (id !== null) row.c_doctype_id = id;
  }
}

/** Header columns a journal takes from its batch when it leaves them empty (as the original's batch copies them). */
const FROM_BATCH = ['c_doctype_id', 'dateacct', 'datedoc', 'gl_category_id', 'c_currency_id', 'postingtype', 'c_conversiontype_id'];

/**
 * A journal or a batch: the GL Journal document type, the client's schema, its currency and the
 * default conversion type, today's dates, the period of the accounting date, the category of the
 * document type, actual posting; a journal takes its batch's values first. Its CurrencyRate is
 * the rate of its currency to the schema's on the accounting date unless the caller gives one.
 */
export async function journalHeaderBeforeSave(e: ModelEvent): Promise<void> {
  const row = e.row;
  const isNew = e.type === 'before-new';
  const schema = await clientSchema(e.tx, clientOf(e));
  if (!schema) throw invalid('The client has no accounting schema');
  const batchId = idOf(row.gl_journalbatch_id);
  if (isNew && batchId !== null && e.table.dbName === 'gl_journal') {
    const { rows } = await e.tx.query<Row>('SELECT * FROM gl_journalbatch WHERE gl_journalbatch_id = $1 AND ad_client_id = $2', [batchId, clientOf(e)]);
    const batch = rows[0];
    if (batch?.processed === 'Y') throw invalid(`GL journal batch ${String(batch.documentno)} is processed: it takes no more journals`);
    if (batch) for (const c of FROM_BATCH) if (!e.given?.has(c)) await fillUnset(e, c, batch[c]);
  }
  if (isNew) {
    await fillUnset(e, 'c_acctschema_id', schema.schemaId);
    await fillUnset(e, 'c_currency_id', schema.currencyId);
    await fillUnset(e, 'c_conversiontype_id', await defaultConversionType(e));
    if (!e.given?.has('c_doctype_id')) await fillUnset(e, 'c_doctype_id', await defaultDocTypeOf(e.tx, 'GLJ', false, clientOf(e)));
    fillEmpty(e, 'dateacct', todayDate());
    fillEmpty(e, 'datedoc', row.dateacct);
    if (isEmptyValue(row.postingtype)) row.postingtype = 'A';
    for (const c of ['totaldr', 'totalcr']) fillEmpty(e, c, 0);
  }
  if (isNew || e.changed.has('dateacct')) {
    const period = await periodIdOf(e.tx, clientOf(e), row.dateacct);
    if (period === null) throw invalid(`No accounting period holds ${String(row.dateacct).slice(0, 10)} (column DateAcct)`);
    row.c_period_id = period;
  }
  if (isEmptyValue(row.gl_category_id)) {
    const { rows } = await e.tx.query<{ id: number }>(
      `SELECT COALESCE((SELECT gl_category_id FROM c_doctype WHERE c_doctype_id = $2),
          (SELECT gl_category_id FROM gl_category WHERE ad_client_id = $1 AND isactive = 'Y' ORDER BY CASE WHEN isdefault = 'Y' THEN 0 ELSE 1 END, gl_category_id LIMIT 1)) AS id`,
      [clientOf(e), idOf(row.c_doctype_id)],
    );
    fillEmpty(e, 'gl_category_id', rows[0]?.id);
  }
  if (e.table.byName.has('currencyrate')) {
    const rateChanges = ['c_currency_id', 'dateacct', 'c_conversiontype_id'].some((c) => e.changed.has(c)) && !e.changed.has('currencyrate');
    if ((isNew && !e.given?.has('currencyrate')) || isEmptyValue(row.currencyrate) || rateChanges) row.currencyrate = await rateOf(e, schema);
  }
}

/** Accounted amounts of a line: its source amounts at the rate, rounded to the schema currency's precision (half up). */
export function accountedOf(source: unknown, rate: unknown, precision: number): string {
  return toText(round(mul(isEmptyValue(source) ? 0 : String(source), String(rate ?? 1)), precision));
}

/** The combination of an account in a schema, found or made (the original's MAccount.get), as an id. */
async function combinationOf(e: ModelEvent, schemaId: number, accountId: number): Promise<number> {
  const { rows } = await e.tx.query<{ id: number }>(
    `SELECT c_validcombination_id AS id FROM c_validcombination WHERE ad_client_id = $1 AND c_acctschema_id = $2 AND account_id = $3 AND isactive = 'Y'
      ORDER BY ad_org_id, c_validcombination_id LIMIT 1`,
    [clientOf(e), schemaId, accountId],
  );
  if (rows[0]) return Number(rows[0].id);
  const { rows: made } = await e.tx.query<{ id: number }>(
    `INSERT INTO c_validcombination (c_validcombination_id, c_validcombination_uu, ad_client_id, ad_org_id, isactive, created, createdby, updated, updatedby,
       combination, description, c_acctschema_id, account_id, isfullyqualified)
     SELECT nextval('c_validcombination_sq'), gen_random_uuid()::text, $1, 0, 'Y', now(), $4, now(), $4, ev.value, ev.name, $2, ev.c_elementvalue_id, 'Y'
       FROM c_elementvalue ev WHERE ev.c_elementvalue_id = $3 AND ev.ad_client_id = $1
     RETURNING c_validcombination_id AS id`,
    [clientOf(e), schemaId, accountId, e.auth.userId],
  );
  if (!made[0]) throw invalid(`Account ${accountId} is not an account of the client (column Account_ID)`);
  return Number(made[0].id);
}

/**
 * A journal line: numbered after the last one; currency, conversion type, rate and accounting
 * date of its journal; its account from its combination (or a combination found or made for the
 * account it names); accounted amounts at the journal's rate. The lines of a processed journal
 * do not change.
 */
export async function journalLineBeforeSave(e: ModelEvent): Promise<void> {
  const row = e.row;
  const { rows } = await e.tx.query<Row>(
    `SELECT j.documentno, j.processed, j.c_acctschema_id, j.c_currency_id, j.c_conversiontype_id, j.currencyrate, j.dateacct,
        COALESCE((SELECT c.stdprecision FROM c_currency c JOIN c_acctschema s ON s.c_currency_id = c.c_currency_id WHERE s.c_acctschema_id = j.c_acctschema_id), 2)::int AS precision,
        (SELECT COALESCE(max(l.line), 0) FROM gl_journalline l WHERE l.gl_journal_id = j.gl_journal_id) AS lastline
       FROM gl_journal j WHERE j.gl_journal_id = $1`,
    [idOf(row.gl_journal_id)],
    { name: 'gl_line_journal' },
  );
  const journal = rows[0];
  if (!journal) throw invalid(`GL journal ${String(row.gl_journal_id)} not found (column GL_Journal_ID)`);
  if (journal.processed === 'Y' && e.type === 'before-new') throw invalid(`GL journal ${String(journal.documentno)} is processed: its lines cannot change`);
  if (e.type === 'before-new' && isEmptyValue(row.line)) row.line = Number(journal.lastline) + 10;
  for (const c of ['c_currency_id', 'c_conversiontype_id', 'currencyrate', 'dateacct']) row[c] = journal[c];
  const combination = idOf(row.c_validcombination_id);
  const changedCombination = e.type === 'before-new' || e.changed.has('c_validcombination_id');
  if (combination !== null && changedCombination) {
    const found = await e.tx.query<{ account_id: number }>('SELECT account_id FROM c_validcombination WHERE c_validcombination_id = $1 AND ad_client_id = $2', [combination, clientOf(e)]);
    if (!found.rows[0]) throw invalid(`Account combination ${combination} not found (column C_ValidCombination_ID)`);
    row.account_id = found.rows[0].account_id;
  } else if (idOf(row.account_id) !== null && (combination === null || e.changed.has('account_id'))) {
    row.c_validcombination_id = await combinationOf(e, Number(journal.c_acctschema_id), Number(row.account_id));
  }
  for (const side of ['dr', 'cr']) {
    if (isEmptyValue(row[`amtsource${side}`])) row[`amtsource${side}`] = 0;
    row[`amtacct${side}`] = accountedOf(row[`amtsource${side}`], row.currencyrate, Number(journal.precision));
  }
}

/** TotalDr and TotalCr of journals follow their lines, and those of batches their journals (one statement). */
export async function refreshJournalTotals(q: Queryable, journalIds: number[], batchIds: number[] = []): Promise<void> {
  await q.query(
    `WITH j AS (
       UPDATE gl_journal g SET totaldr = COALESCE(s.dr, 0), totalcr = COALESCE(s.cr, 0)
         FROM (SELECT j0.gl_journal_id AS id, sum(l.amtacctdr) AS dr, sum(l.amtacctcr) AS cr
                 FROM gl_journal j0 LEFT JOIN gl_journalline l ON l.gl_journal_id = j0.gl_journal_id AND l.isactive = 'Y'
                WHERE j0.gl_journal_id = ANY($1::bigint[]) GROUP BY j0.gl_journal_id) s
        WHERE g.gl_journal_id = s.id RETURNING g.gl_journal_id, g.gl_journalbatch_id, g.totaldr, g.totalcr
     ), b AS (
       SELECT DISTINCT x.id FROM (SELECT gl_journalbatch_id AS id FROM j UNION ALL SELECT unnest($2::bigint[])) x WHERE x.id IS NOT NULL
     )
     UPDATE gl_journalbatch t SET
        totaldr = (SELECT COALESCE(sum(CASE WHEN j.gl_journal_id IS NOT NULL THEN j.totaldr ELSE o.totaldr END), 0)
                     FROM gl_journal o LEFT JOIN j ON j.gl_journal_id = o.gl_journal_id WHERE o.gl_journalbatch_id = t.gl_journalbatch_id AND o.isactive = 'Y'),
        totalcr = (SELECT COALESCE(sum(CASE WHEN j.gl_journal_id IS NOT NULL THEN j.totalcr ELSE o.totalcr END), 0)
                     FROM gl_journal o LEFT JOIN j ON j.gl_journal_id = o.gl_journal_id WHERE o.gl_journalbatch_id = t.gl_journalbatch_id AND o.isactive = 'Y')
      WHERE t.gl_journalbatch_id IN (SELECT id FROM b)`,
    [journalIds, batchIds],
  );
}

/** After a line is written or deleted: its journal's totals (and its batch's), once per write operation. */
export function journalLineAfterSave(e: ModelEvent): void {
  const id = idOf(e.row.gl_journal_id ?? e.old?.gl_journal_id);
  if (id === null) return;
  e.defer(`gl_journal_totals:${id}`, async () => {
    await refreshJournalTotals(e.tx, [id]);
    e.memo.forget('gl_journal');
    e.memo.forget('gl_journalbatch');
  });
}

/** After a journal is written, moved or deleted: the totals of the batches it was and is in. */
export function journalAfterSave(e: ModelEvent): void {
  const batches = [idOf(e.row.gl_journalbatch_id), idOf(e.old?.gl_journalbatch_id)].filter((b): b is number => b !== null);
  if (!batches.length) return;
  e.defer(`gl_batch_totals:${batches.join(',')}`, async () => {
    await refreshJournalTotals(e.tx, [], batches);
    e.memo.forget('gl_journalbatch');
  });
}

/**
 * When a journal's currency, rate or accounting date change, its lines follow: their currency,
 * rate and date, and their accounted amounts at the new rate.
 */
export async function journalAfterChange(e: ModelEvent): Promise<void> {
  if (!['c_currency_id', 'c_conversiontype_id', 'currencyrate', 'dateacct'].some((c) => e.changed.has(c))) return;
  const schema = await clientSchema(e.tx, clientOf(e));
  await e.tx.query(
    `UPDATE gl_journalline SET c_currency_id = $2, c_conversiontype_id = $3, currencyrate = $4, dateacct = $5::timestamp,
        amtacctdr = round(amtsourcedr * $4::numeric, $6::int), amtacctcr = round(amtsourcecr * $4::numeric, $6::int)
      WHERE gl_journal_id = $1`,
    [e.row.gl_journal_id, e.row.c_currency_id, e.row.c_conversiontype_id, e.row.currencyrate, e.row.dateacct, schema?.precision ?? 2],
  );
  e.memo.forget('gl_journalline');
  const id = Number(e.row.gl_journal_id);
  e.defer(`gl_journal_totals:${id}`, async () => refreshJournalTotals(e.tx, [id]));
}
