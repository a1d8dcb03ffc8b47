/**
 * How a table would be placed on a distributed PostgreSQL (Citus) by `AD_Client_ID`: distributed
 * (its rows sharded by client), reference (one copy on every node: the dictionary, System
 * configuration, small tables shared by all clients) or local (kept on the coordinator: the
 * service's own internal tables). The schema check (`schema --distributed`) reports on it and
 * table creation (ddl.ts) keys distributed tables by (id, AD_Client_ID).
 */
export type Distribution = 'distributed' | 'reference' | 'local';

/** The column a distributed table is sharded by. */
export const DISTRIBUTION_COLUMN = 'ad_client_id';

/**
 * Tables of access level System+Client (6) or All (7) whose rows are each client's own and grow
 * with use (logs, attachments, addresses, process runs, webhooks' traffic): distributed, although
 * they may hold System rows too. The other tables of those levels are configuration that every
 * client reads (currencies, countries, units, roles, document types) and stay reference tables.
 */
export const CLIENT_DATA_SHARED_TABLES: ReadonlySet<string> = new Set([
  'ad_archive',
  'ad_attachment',
  'ad_changelog',
  'ad_note',
  'ad_pinstance',
  'ad_pinstance_log',
  'ad_pinstance_para',
  'ad_session',
  'ad_treenodebp',
  'ad_treenodepr',
  'ad_wf_activity',
  'ad_wf_process',
  'c_conversion_rate',
  'c_location',
  'r_request',
  'rest_refreshtoken',
  'rest_webhook_in_log',
  'rest_webhook_out_event',
  'rest_webhook_out_log',
]);

/** The service's own tables (schema dictum), each with its placement and why. */
export const INTERNAL_TABLES: Readonly<Record<string, { distribution: Distribution; why: string }>> = {
  migration: { distribution: 'local', why: 'the applied migrations: read and written by the migrator on the coordinator only' },
  dictionary_stamp: { distribution: 'local', why: 'one row telling instances that the dictionary changed; read on the coordinator' },
  node: { distribution: 'local', why: 'the running instances and their heartbeats: a handful of rows, coordinator only' },
  scheduler_firing: { distribution: 'local', why: 'claims of scheduler firings across instances: keyed by scheduler and time, system-wide' },
  auth_attempt: { distribution: 'local', why: 'login throttling counters, keyed by user name before any client is known' },
  queue_item: { distribution: 'local', why: 'the job queue, polled with FOR UPDATE SKIP LOCKED across all clients; a distributed table would poll every shard' },
  queue_control: { distribution: 'local', why: 'cancellation and progress of queued jobs, one row per queue item' },
  idempotent_request: { distribution: 'distributed', why: 'answers of idempotent requests kept before migration 274, for instances of earlier versions; its key includes AD_Client_ID' },
  idempotent_answer: { distribution: 'distributed', why: 'stored answers of idempotent requests, per client and digest of user, method, path and key; its key starts with AD_Client_ID' },
};

/** The placement of a dictionary table: by its access level, and CLIENT_DATA_SHARED_TABLES. */
export function dictionaryTableDistribution(table: { dbName: string; accessLevel: string }): Distribution {
  if (table.accessLevel === '4') return 'reference';
  if (table.accessLevel === '6' || table.accessLevel === '7') return CLIENT_DATA_SHARED_TABLES.has(table.dbName) ? 'distributed' : 'reference';
  return 'distributed';
}
