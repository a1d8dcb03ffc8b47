import { insertRow } from '../auth/util.js';
import { ident } from '../db/sql.js';
import type { Queryable } from '../db/types.js';
import type { Table } from '../dictionary/model.js';
import type { ModelEvent, ModelEventType } from '../events/model-events.js';
import { readRecords } from '../processes/process-definition.js';
import { serializeRecord, type Json, type JsonObject } from '../records/serialize.js';
import type { Services } from '../services.js';
import { columnList, renderTemplate, selectColumns } from './payload-template.js';
import { newMessageId } from './signature.js';
import type { Subscription, SubscriptionCache } from './subscriptions.js';

/**
 * Event codes (EventModelValidator) and the model events that raise them. A document event plugs
 * in with one line once document actions raise it through ModelEvents, e.g. `DACO: 'after-complete'`.
 */
export const WEBHOOK_EVENT_SOURCES: Readonly<Record<string, ModelEventType>> = {
  TAN: 'after-new',
  TAC: 'after-change',
  TAD: 'after-delete',
  // The document events the original wires: the header as the action leaves it.
  DACO: 'after-complete',
  DAVO: 'after-void',
  DACL: 'after-close',
  DAAC: 'after-reactivate',
  DARC: 'after-reverse-correct',
};

/** The record's values a template reads, by lower-case column name; a lookup gives its id. */
function templateValues(record: JsonObject, keys: TableKeys): Map<string, Json> {
  const out = new Map<string, Json>();
  for (const [k, v] of Object.entries(record)) {
    out.set(k.toLowerCase(), v && typeof v === 'object' && !Array.isArray(v) && 'id' in v ? (v.id as Json) : v);
  }
  // The record shows its key and UUID as id and uid; a template names them by column.
  if (keys.key && record.id !== undefined) out.set(keys.key.toLowerCase(), record.id);
  if (keys.uuid && record.uid !== undefined) out.set(keys.uuid.toLowerCase(), record.uid);
  return out;
}

/** Column names of a table's key and UUID. */
export interface TableKeys {
  key?: string | undefined;
  uuid?: string | undefined;
}

/** The data of a delivery: the template filled, or the record narrowed by its column lists. */
export function deliveryData(sub: Pick<Subscription, 'template' | 'include' | 'exclude'>, record: JsonObject, keys: TableKeys = {}): Json {
  if (sub.template) return renderTemplate(sub.template, templateValues(record, keys));
  return selectColumns(record, columnList(sub.include), columnList(sub.exclude));
}

/** The body sent: the Standard Webhooks envelope, or the data alone for other endpoints. */
export function deliveryBody(sub: Pick<Subscription, 'isStandard'>, type: string, at: Date, data: Json): string {
  return JSON.stringify(sub.isStandard ? { type, timestamp: at.toISOString(), data } : data);
}

/** The record as /models shows it, read in the event's transaction. */
async function readRecord(q: Queryable, e: ModelEvent, table: Table, id: number): Promise<JsonObject | null> {
  const key = table.keyColumn!;
  const { records } = await readRecords(q, e.dict, table, (a, sql) => `${ident(a)}.${ident(key.dbName)} = ${sql.param(id)}`, '1');
  return records[0] ?? null;
}

/** A SysConfig value as an integer, or the default. */
export function intOf(v: string | null, def: number): number {
  const n = v === null ? NaN : Number(v.trim());
  return Number.isFinite(n) ? n : def;
}

export interface OutboxOptions {
  s: Services;
  subscriptions: SubscriptionCache | null;
  /** Wakes the dispatchers when the transaction commits. */
  notify(q: Queryable): Promise<void>;
}

/**
 * Writes deliveries (REST_Webhook_Out_Log rows, status P) in the transaction of the change that
 * raised the event: a rolled-back change sends nothing, a committed one is delivered even if this
 * instance stops right after (the rows are the dispatchers' queue).
 */
export async function writeDeliveries(o: OutboxOptions, q: Queryable, subs: readonly Subscription[], table: Table, code: string, recordId: number | null, record: JsonObject, at = new Date()): Promise<number[]> {
  const { s } = o;
  const ids: number[] = [];
  const maxSize = new Map<number, number>();
  let sendable = false;
  for (const sub of subs) {
    const type = `${table.name}.${code}`;
    const body = deliveryBody(sub, type, at, deliveryData(sub, record, { key: table.keyColumn?.name, uuid: table.uuColumn?.name }));
    const size = Buffer.byteLength(body);
    let max = maxSize.get(sub.clientId);
    if (max === undefined) maxSize.set(sub.clientId, (max = intOf(await s.sysConfig.get('REST_WEBHOOK_MAX_PAYLOAD_SIZE', sub.clientId, 0, q), 20480)));
    const tooLarge = max > 0 && size > max;
    const messageId = newMessageId();
    const logId = await insertRow(
      q,
      'REST_Webhook_Out_Log',
      {
        rest_webhook_out_id: sub.endpointId,
        rest_webhook_out_event_id: sub.eventId,
        webhookmessageid: messageId,
        eventtype: type.slice(0, 60),
        ad_table_id: table.id,
        record_id: recordId,
        payload: tooLarge ? null : body,
        deliverystatus: tooLarge ? 'A' : 'P',
        attempts: 0,
        errormessage: tooLarge ? `Payload of ${size} bytes exceeds REST_WEBHOOK_MAX_PAYLOAD_SIZE (${max}); dropped, not sent` : null,
      },
      { clientId: sub.clientId, orgId: sub.orgId },
    );
    if (tooLarge) s.log.warn({ endpoint: sub.endpointId, event: type, size, max, delivery: logId }, 'webhook payload too large; dropped');
    else sendable = true;
    ids.push(logId);
  }
  if (sendable) await o.notify(q);
  return ids;
}

/** Subscribes the outbox to every event code it knows. */
export function registerOutbox(o: OutboxOptions): void {
  const { s } = o;
  for (const [code, type] of Object.entries(WEBHOOK_EVENT_SOURCES)) {
    s.events.on(type, null, (e) => {
      // Most writes are of tables nobody subscribed to: they pass without waiting.
      const found = o.subscriptions!.find(e.table.id, code, e.tx);
      if (found instanceof Promise) return found.then((all) => outboxOf(o, code, type, e, all));
      return found ? outboxOf(o, code, type, e, found) : undefined;
    });
  }
}

/** The deliveries of an event to the subscriptions of its table and code (of any client). */
async function outboxOf(o: OutboxOptions, code: string, type: ModelEventType, e: ModelEvent, all: Subscription[] | undefined): Promise<void> {
  const table = e.table;
  if (!all || !table.keyColumn) return;
  const clientId = Number(e.row.ad_client_id ?? e.auth.clientId);
  const subs = all.filter((x) => x.clientId === clientId);
  if (!subs.length) return;
  if ((await o.s.sysConfig.get('REST_WEBHOOK_ENABLED', clientId, 0, e.tx))?.trim().toUpperCase() !== 'Y') return;
  const id = Number(e.row[table.keyColumn.dbName]);
  if (type === 'after-delete') {
    await writeDeliveries(o, e.tx, subs, table, code, id, serializeRecord(e.dict, table, e.row));
    return;
  }
  // Read back once the whole write is done, so the payload shows the record as saved (totals included).
  e.defer(`webhook:${code}:${table.dbName}:${id}`, async () => {
    const record = await readRecord(e.tx, e, table, id);
    if (record) await writeDeliveries(o, e.tx, subs, table, code, id, record);
  });
}
