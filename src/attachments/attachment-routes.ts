import type { FastifyInstance, FastifyReply } from 'fastify';
import { assertWritableRow } from '../access/access.js';
import type { AuthContext } from '../auth/context.js';
import { readableRecord } from '../archives/record-key.js';
import type { Table } from '../dictionary/model.js';
import { badRequest, conflict, notFound } from '../errors.js';
import { tableFromPath } from '../records/http/table-from-path.js';
import { loadForWrite } from '../records/write/persist.js';
import { createWriteContext } from '../records/write/write-context.js';
import type { Services } from '../services.js';
import type { Tx } from '../db/types.js';
import { entryInfos, loadAttachment, readEntries, saveAttachment, zipEntries, type StoredAttachment } from './attachment-store.js';
import { contentTypeOfName } from './content-type.js';
import { decodeBase64Field } from './base64-field.js';

type Params = { table: string; id: string; fileName: string };
const ZIP_NAME = 'zip';

/**
 * Attachments of a record (/models/{table}/{id}/attachments...): reads need read access to the
 * record, writes need write access to it (its client and organization, as a record update).
 */
export async function attachmentRoutes(app: FastifyInstance, s: Services): Promise<void> {
  const base = '/api/v1/models/:table/:id/attachments';

  app.get<{ Params: Params }>(base, async (req) => {
    const { table, record } = await readable(s, req.auth, req.params);
    return { attachments: entryInfos(await loadAttachment(s.db, req.auth, table.id, record.id)) };
  });

  app.get<{ Params: Params }>(`${base}/${ZIP_NAME}`, { config: { queryParameters: ['json', 'locale'] } }, async (req, reply) => {
    const { table, record } = await readable(s, req.auth, req.params);
    const a = await loadAttachment(s.db, req.auth, table.id, record.id);
    if (!a || a.entries.size === 0) throw notFound('Attachment not found', `No attachment for ${table.name} ${req.params.id}`);
    return sendBytes(reply, zipEntries(a.entries), 'application/octet-stream', `${table.name}_${record.id}.zip`, req.query);
  });

  app.get<{ Params: Params }>(`${base}/:fileName`, { config: { queryParameters: ['json', 'locale'] } }, async (req, reply) => {
    const { table, record } = await readable(s, req.auth, req.params);
    const bytes = (await loadAttachment(s.db, req.auth, table.id, record.id))?.entries.get(req.params.fileName);
    if (!bytes) throw notFound('Attachment not found', `No attachment entry ${req.params.fileName} for ${table.name} ${req.params.id}`);
    return sendBytes(reply, Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length), contentTypeOfName(req.params.fileName), req.params.fileName, req.query);
  });

  app.post<{ Params: Params; Body: unknown }>(base, async (req, reply) => {
    const body = objectBody(req.body);
    const name = typeof body.name === 'string' ? body.name.trim() : '';
    if (!name) throw badRequest('Request Error', 'name property is mandatory');
    checkEntryName(name);
    const data = decodeBase64Field(body.data);
    await s.db.tx((tx) =>
      changeEntries(s, req.auth, tx, req.params, (entries) => {
        if (entries.has(name) && body.overwrite !== true) throw conflict('Request Error', 'Duplicate file name');
        entries.set(name, data);
      }),
    );
    return reply.code(201).send();
  });

  app.post<{ Params: Params; Body: unknown }>(`${base}/${ZIP_NAME}`, async (req, reply) => {
    const body = objectBody(req.body);
    const added = zipContent(decodeBase64Field(body.data));
    await s.db.tx((tx) =>
      changeEntries(s, req.auth, tx, req.params, (entries) => {
        for (const [name, bytes] of added) {
          if (entries.has(name) && body.overwrite !== true) throw conflict('Request Error', 'Duplicate file name');
          entries.set(name, bytes);
        }
      }),
    );
    return reply.code(201).send();
  });

  app.delete<{ Params: Params }>(base, async (req) => {
    await s.db.tx((tx) =>
      changeEntries(s, req.auth, tx, req.params, (entries, a) => {
        if (!a) throw notFound('Attachment not found', `No attachment for ${req.params.table} ${req.params.id}`);
        entries.clear();
      }),
    );
    return { msg: 'Deleted' };
  });

  app.delete<{ Params: Params }>(`${base}/:fileName`, async (req) => {
    await s.db.tx((tx) =>
      changeEntries(s, req.auth, tx, req.params, (entries) => {
        if (!entries.delete(req.params.fileName)) throw notFound('Attachment not found', `No attachment entry ${req.params.fileName} for ${req.params.table} ${req.params.id}`);
      }),
    );
    return { msg: 'Deleted' };
  });
}

async function readable(s: Services, auth: AuthContext, p: Params): Promise<{ table: Table; record: { id: number } }> {
  const table = tableFromPath(s, p.table);
  return { table, record: await readableRecord(s.db, auth, table, p.id) };
}

/**
 * Changes the entries of a record's attachment in the request's transaction. The record is
 * loaded for writing (locked, with the caller's access), which also serialises concurrent changes.
 */
export async function changeEntries(
  s: Services,
  auth: AuthContext,
  tx: Tx,
  p: { table: string; id: string },
  change: (entries: Map<string, Uint8Array>, existing: StoredAttachment | null) => void,
): Promise<void> {
  const table = tableFromPath(s, p.table);
  if (!table.keyColumn) throw notFound('Record not found', `${table.name} records have no single key`);
  const wc = createWriteContext(s.dictionary.current, auth, tx, s.events);
  const row = await loadForWrite(wc, table, p.id);
  const clientId = table.byName.has('ad_client_id') ? Number(row.ad_client_id) : null;
  const orgId = table.byName.has('ad_org_id') ? Number(row.ad_org_id) : null;
  assertWritableRow(auth, table, clientId, orgId, 'update');
  const recordId = Number(row[table.keyColumn.dbName]);
  const existing = await loadAttachment(tx, auth, table.id, recordId, true);
  const entries = new Map(existing?.entries ?? []);
  change(entries, existing);
  const uu = table.uuColumn ? row[table.uuColumn.dbName] : null;
  await saveAttachment(tx, auth, { tableId: table.id, recordId, recordUu: typeof uu === 'string' ? uu : null, orgId: orgId ?? 0 }, existing, entries);
}

function objectBody(body: unknown): Record<string, unknown> {
  if (!body || typeof body !== 'object' || Array.isArray(body)) throw badRequest('Request Error', 'The body must be a JSON object');
  return body as Record<string, unknown>;
}

/** Entry names are file names: no path parts, no control characters, at most 255 characters. */
function checkEntryName(name: string): void {
  if (name.length > 255 || /[/\\\u0000-\u001f]/.test(name) || name === '.' || name === '..' || name === ZIP_NAME) {
    throw badRequest('Request Error', `Invalid file name: ${name}`);
  }
}

function zipContent(data: Uint8Array): Map<string, Uint8Array> {
  let entries: Map<string, Uint8Array>;
  try {
    entries = readEntries(Buffer.from(data.buffer, data.byteOffset, data.length));
  } catch {
    throw badRequest('Request Error', 'data is not a zip file');
  }
  for (const name of entries.keys()) checkEntryName(name);
  if (entries.size === 0) throw badRequest('Request Error', 'The zip file holds no entries');
  return entries;
}

function sendBytes(reply: FastifyReply, data: Buffer, contentType: string, fileName: string, query: unknown): FastifyReply | { data: string } {
  const json = (query as Record<string, unknown>).json;
  if (typeof json === 'string') return { data: data.toString('base64') };
  reply.type(contentType);
  reply.header('Content-Disposition', `attachment; filename="${fileName.replace(/[^\x20-\x7e]|["\\]/g, '_')}"`);
  return reply.send(data);
}
