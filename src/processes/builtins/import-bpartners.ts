import fs from 'node:fs';
import { badRequest } from '../../errors.js';
import { insertRecord } from '../../records/write/persist.js';
import { createWriteContext } from '../../records/write/write-context.js';
import type { ProcessCall, ProcessOutcome } from '../runner.js';

/** Rows one import may hold. */
const MAX_IMPORT_ROWS = 10_000;

/**
 * Import Business Partners from a CSV file (FileName parameter): a header row of C_BPartner
 * column names (Value and Name at least), then one partner per row, each created through the
 * generic insertRecord with the caller's defaults and checks. One bad row fails the run and
 * nothing is kept.
 */
export async function importBPartners(c: ProcessCall): Promise<ProcessOutcome> {
  const file = c.file('FileName');
  if (!file) throw badRequest('Invalid parameter', 'Parameter FileName is mandatory');
  // Loaded on the first import, so that a service that never imports does not hold the parser.
  const { parse } = await import('csv-parse/sync');
  let records: Record<string, string>[];
  try {
    records = parse(fs.readFileSync(file.path), { columns: true, skip_empty_lines: true, trim: true, bom: true, to: MAX_IMPORT_ROWS + 1 });
  } catch (e) {
    throw badRequest('Invalid file', `${file.name} is not a CSV file with a header row: ${(e as Error).message}`);
  }
  if (records.length > MAX_IMPORT_ROWS) throw badRequest('Invalid file', `At most ${MAX_IMPORT_ROWS} rows can be imported at once`);
  const dict = c.s.dictionary.current;
  const table = dict.byName.get('c_bpartner')!;
  const wc = createWriteContext(dict, c.auth, c.tx, c.s.events);
  let row = 1;
  for (const r of records) {
    row++;
    const body = Object.fromEntries(Object.entries(r).filter(([, v]) => v !== ''));
    try {
      const created = await insertRecord(wc, table, body);
      await wc.deferred.flush();
      c.log({ msg: `${String(created.row.value)} ${String(created.row.name)}`, tableId: table.id, recordId: Number(created.row.c_bpartner_id) });
      c.progress((row - 1) / records.length);
    } catch (e) {
      const detail = e instanceof Error && 'detail' in e ? String((e as { detail: unknown }).detail) : (e as Error).message;
      return { summary: `${file.name} row ${row}: ${detail}`, isError: true };
    }
  }
  return { summary: `Business partners imported from ${file.name}: ${records.length}` };
}
