import type { FastifyInstance } from 'fastify';
import type { Services } from '../services.js';
import { ApiError, notFound } from '../errors.js';
import { readContext } from '../records/http/models-routes.js';
import { readDictionaryRecords } from '../read-services/dictionary-records.js';
import type { ReadContext } from '../records/read/read-context.js';
import { FragmentError } from '../sql-fragments/fragment-check.js';
import { statusLineMessage } from './status-line.js';
import { Type } from '@sinclair/typebox';
import { ref, listOf, Open } from '../openapi/answer-schemas.js';

type Row = Record<string, unknown>;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const flag = (v: unknown): boolean => v !== undefined && !/^(false|n|0)$/i.test(String(v));

/** Message templates by AD_Message_ID (the message's text, in the base language). */
async function templates(rc: ReadContext, ids: number[]): Promise<Map<number, string>> {
  const { rows } = await rc.q.query<{ id: number; msgtext: string }>('SELECT ad_message_id AS id, msgtext FROM ad_message WHERE ad_message_id = ANY($1::bigint[])', [ids]);
  return new Map(rows.map((r) => [Number(r.id), r.msgtext]));
}

async function messageOf(s: Services, rc: ReadContext, row: Row, texts: Map<number, string>): Promise<string> {
  try {
    return await statusLineMessage(s.db, rc.auth, { sqlStatement: String(row.sqlstatement ?? ''), template: texts.get(Number(row.ad_message_id)) ?? '' });
  } catch (e) {
    // A statement that the save-time check would refuse reached the dictionary another way.
    if (e instanceof FragmentError) throw new ApiError(500, 'GET Error', `Status line ${String(row.name)} has an invalid statement`);
    throw e;
  }
}

/** GET /statuslines ($filter, with_messages) and /statuslines/{id} → {message}. */
export async function statusLineRoutes(app: FastifyInstance, s: Services): Promise<void> {
  const table = () => s.dictionary.current.byName.get('ad_statusline')!;

  app.get('/api/v1/statuslines', { schema: { summary: 'Status lines (with_messages=true: their text)', answer: listOf('statusLines', ref('DictionaryRow')), example: { statusLines: [{ id: 1000000, Name: 'Open orders', 'model-name': 'ad_statusline' }] } }, config: { queryParameters: ['$filter', 'with_messages', 'locale'] } }, async (req) => {
    const rc = readContext(s, req);
    const query = req.query as Record<string, unknown>;
    const filter = typeof query.$filter === 'string' ? query.$filter : undefined;
    const { records, rows } = await readDictionaryRecords(rc, table(), { ...(filter !== undefined ? { filter } : {}), orderBy: ['Name'], select: ['Name', 'EntityType'] });
    if (flag(query.with_messages)) {
      const texts = await templates(rc, rows.map((r) => Number(r.ad_message_id)));
      for (let i = 0; i < rows.length; i++) records[i]!.message = await messageOf(s, rc, rows[i]!, texts);
    }
    return { statusLines: records };
  });

  app.get<{ Params: { id: string } }>('/api/v1/statuslines/:id', { schema: { summary: 'A status line with its message', answer: Open({ message: Type.Optional(Type.String()) }), example: { message: '3 open orders' } } }, async (req) => {
    const rc = readContext(s, req);
    const id = req.params.id;
    if (!/^\d{1,15}$/.test(id) && !UUID.test(id)) throw notFound('Status Line not found', `No valid status line with the given id = ${id}`);
    const t = table();
    const { rows } = await readDictionaryRecords(rc, t, {
      extra: (sql) => [/^\d+$/.test(id) ? `t."ad_statusline_id" = ${sql.param(Number(id))}` : `t."ad_statusline_uu" = ${sql.param(id.toLowerCase())}`],
    });
    const row = rows[0];
    if (!row || !row.sqlstatement) throw notFound('Status Line not found', `No valid status line with the given id = ${id}`);
    return { message: await messageOf(s, rc, row, await templates(rc, [Number(row.ad_message_id)])) };
  });
}
