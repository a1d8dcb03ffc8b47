import type { ModelEvent, ModelEvents } from '../events/model-events.js';
import { forbidden } from '../errors.js';
import { validationError } from '../records/write/write-errors.js';
import { generateSecret, secretKey } from './signature.js';
import { renderTemplate } from './payload-template.js';

/** The configuration tables: only client administrators write them. */
export const WEBHOOK_CONFIG_TABLES: ReadonlySet<string> = new Set(['rest_webhook_out', 'rest_webhook_out_event', 'rest_webhook_in']);
/** The logs: written by the service alone, read-only through the API. */
export const WEBHOOK_LOG_TABLES: ReadonlySet<string> = new Set(['rest_webhook_out_log', 'rest_webhook_in_log']);

/** Smallest inbound secret, in bytes after base64 decoding (spec, Limits). */
export const MIN_INBOUND_SECRET_BYTES = 24;

const ENDPOINT_KEY = /^[a-z0-9][a-z0-9_-]{0,59}$/;

const value = (e: ModelEvent, column: string): unknown => e.row[column];
const text = (v: unknown): string => (v === null || v === undefined ? '' : String(v));
const yes = (v: unknown): boolean => v === 'Y' || v === true;

function checkOutbound(e: ModelEvent): void {
  const url = text(value(e, 'url')).trim();
  let parsed: URL | null = null;
  try {
    parsed = new URL(url);
  } catch {
    parsed = null;
  }
  if (!parsed || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')) throw validationError(`URL must be an http or https address: ${url.slice(0, 200)}`);
  const max = value(e, 'maxconsecutivefailures');
  if (max !== null && max !== undefined && Number(max) < 0) throw validationError(`MaxConsecutiveFailures must not be negative: ${max}`);
  for (const column of ['webhooksecret', 'previoussecret'] as const) {
    const secret = text(value(e, column));
    if (secret && !secretKey(secret)) throw validationError(`${column === 'webhooksecret' ? 'WebhookSecret' : 'PreviousSecret'} must be whsec_ followed by base64`);
  }
  // Standard endpoints sign: one without a secret gets a new one (a value given is kept).
  if (yes(value(e, 'isstandardwebhook')) && !text(value(e, 'webhooksecret'))) e.row.webhooksecret = generateSecret();
  // Unpausing starts the failure count again, or the next failure would pause it at once.
  if (e.type === 'before-change' && e.changed.has('ispaused') && !yes(value(e, 'ispaused'))) e.row.consecutivefailures = 0;
}

function checkSubscription(e: ModelEvent): void {
  const template = text(value(e, 'payloadtemplate'));
  if (!template.trim()) return;
  try {
    renderTemplate(template, new Map());
  } catch {
    throw validationError('PayloadTemplate is not JSON once its @Column@ variables are replaced');
  }
}

async function checkInbound(e: ModelEvent): Promise<void> {
  const key = text(value(e, 'endpointkey'));
  if (!ENDPOINT_KEY.test(key)) throw validationError(`EndpointKey must be lowercase letters, digits, - and _ (URL-safe, at most 60): ${key.slice(0, 80)}`);
  const id = e.row.rest_webhook_in_id;
  const { rows } = await e.tx.query(`SELECT 1 FROM rest_webhook_in WHERE endpointkey = $1 AND rest_webhook_in_id <> $2`, [key, Number(id ?? 0)]);
  if (rows.length) throw validationError(`EndpointKey is already used by another endpoint: ${key}`);
  const user = value(e, 'ad_user_id');
  if (user === null || user === undefined || user === '') throw validationError('AD_User_ID is required: the process runs as this user');
  const secret = text(value(e, 'webhooksecret'));
  if (yes(value(e, 'isverifysignature')) && !secret) throw validationError('WebhookSecret is required when IsVerifySignature is Y');
  if (secret) {
    const k = secretKey(secret);
    if (!k || k.length < MIN_INBOUND_SECRET_BYTES) throw validationError(`WebhookSecret must be base64 of at least ${MIN_INBOUND_SECRET_BYTES} bytes (whsec_ prefix optional)`);
  }
}

function assertAdministrator(e: ModelEvent): void {
  if (!e.auth.isClientAdministrator) throw forbidden('Access denied', `Only a client administrator may change ${e.table.name}`);
}

/** Validation, secret generation and write rules of the webhook tables. */
export function registerWebhookConfigRules(events: ModelEvents): void {
  for (const type of ['before-new', 'before-change', 'before-delete'] as const) {
    for (const table of WEBHOOK_LOG_TABLES) {
      events.on(type, table, (e) => {
        throw forbidden('Access denied', `${e.table.name} is written by the service only; it is read-only through the API`);
      });
    }
    for (const table of WEBHOOK_CONFIG_TABLES) events.on(type, table, assertAdministrator);
  }
  for (const type of ['before-new', 'before-change'] as const) {
    events.on(type, 'rest_webhook_out', checkOutbound);
    events.on(type, 'rest_webhook_out_event', checkSubscription);
    events.on(type, 'rest_webhook_in', checkInbound);
  }
}
