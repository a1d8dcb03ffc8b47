import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
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
import { loadAttachment, readEntries, saveAttachment, type StoredAttachment } from './attachment-store.js';
import { entryStream, fileEntries, findAttachment, readDirectory, zipSlices } from './stored-zip.js';
import { base64JsonStream } from '../http/base64-json-stream.js';
import { contentTypeOfName } from './content-type.js';
import { decodeBase64Field } from './base64-field.js';
import { pieceStream } from '../http/byte-stream.js';
import { Type } from '@sinclair/typebox';
import { Open, ref } from '../openapi/answer-schemas.js';
import { attachmentBody, documented, FILE } from '../openapi/route-schema.js';

type Params = { id: string; fileName: string } & Record<string, string>;
type Req = FastifyRequest<{ Params: Params }>;
const ZIP_NAME = 'zip';

/**
 * The table of the record a path addresses. It may also check that the path reaches the record
 * (a REST view's where clause), answering as a read of it would when it does not.
 */
export type AttachmentTable = (req: Req) => Promise<Table>;

/**
 * Attachments of a record (/models/{table}/{id}/attachments...): reads need read access to the
 * record, writes need write access to it (its client and organization, as a record update).
 */
export async function attachmentRoutes(app: FastifyInstance, s: Services): Promise<void> {
  await mountAttachmentRoutes(app, s, '/api/v1/models/:table/:id/attachments', async (req) => tableFromPath(s, req.params.table), 'a record');
}

const zipAnswer = Open({ data: Type.String({ contentEncoding: 'base64' }) });

/**
 * The attachment endpoints under `base` (ending in `:id/attachments`), for the records `tableOf`
 * names; `of` names such a record in the summaries of the document.
 */
export async function mountAttachmentRoutes(app: FastifyInstance, s: Services, base: string, tableOf: AttachmentTable, of: string): Promise<void> {
  const readable = async (req: Req) => {
    const table = await tableOf(req);
    return { table, record: await readableRecord(s.db, req.auth, table, req.params.id) };
  };
  /** Changes the entries in a transaction of their own; the table is resolved first, outside it. */
  const change = async (req: Req, fn: (entries: Map<string, Uint8Array>, existing: StoredAttachment | null, table: Table) => void) => {
    const table = await tableOf(req);
    await s.db.tx((tx) => changeEntries(s, req.auth, tx, table, req.params.id, (entries, existing) => fn(entries, existing, table)));
  };

  app.get<{ Params: Params }>(base, { schema: { summary: `Attachment files of ${of}`, answer: ref('Attachments'), example: { attachments: [{ name: 'contract.pdf', contentType: 'application/pdf' }] } } }, async (req) => {
    const { table, record } = await readable(req);
    const a = await findAttachment(s.db, req.auth, table.id, record.id);
    const entries = a ? fileEntries(await readDirectory(s.db, a)) : [];
    return { attachments: entries.map((e) => ({ name: e.name, contentType: contentTypeOfName(e.name) })) };
  });

  app.get<{ Params: Params }>(`${base}/${ZIP_NAME}`, { schema: { summary: `All attachment files of ${of} as a zip (json=true: base64 in JSON)`, binary: ['application/zip'], answer: zipAnswer, example: { data: 'UEsDBBQ...' } }, config: { queryParameters: ['json', 'locale'] } }, async (req, reply) => {
    const { table, record } = await readable(req);
    const a = await findAttachment(s.db, req.auth, table.id, record.id);
    if (!a || fileEntries(await readDirectory(s.db, a)).length === 0) throw notFound('Attachment not found', `No attachment for ${table.name} ${req.params.id}`);
    return sendBytes(reply, () => zipSlices(s.db, a), 'application/octet-stream', `${table.name}_${record.id}.zip`, req.query, a.size);
  });

  app.get<{ Params: Params }>(`${base}/:fileName`, { schema: { summary: `One attachment file of ${of} (json=true: base64 in JSON)`, binary: FILE, answer: zipAnswer, example: { data: 'SGVsbG8=' } }, config: { queryParameters: ['json', 'locale'] } }, async (req, reply) => {
    const { table, record } = await readable(req);
    const a = await findAttachment(s.db, req.auth, table.id, record.id);
    const entry = a ? fileEntries(await readDirectory(s.db, a)).find((e) => e.name === req.params.fileName) : undefined;
    if (!a || !entry) throw notFound('Attachment not found', `No attachment entry ${req.params.fileName} for ${table.name} ${req.params.id}`);
    const stream = await entryStream(s.db, a, entry);
    return sendBytes(reply, () => stream, contentTypeOfName(req.params.fileName), req.params.fileName, req.query, entry.size);
  });

  app.post<{ Params: Params; Body: unknown }>(base, { schema: { summary: `Add a file to the attachment of ${of}`, status: 201, body: documented(attachmentBody), example: { name: 'note.txt', data: 'SGVsbG8=' } } }, async (req, reply) => {
    const body = objectBody(req.body);
    const name = typeof body.name === 'string' ? body.name.trim() : '';
    if (!name) throw badRequest('Request Error', 'name property is mandatory');
    checkEntryName(name);
    const data = decodeBase64Field(body.data);
    await change(req, (entries) => {
      if (entries.has(name) && body.overwrite !== true) throw conflict('Request Error', 'Duplicate file name');
      entries.set(name, data);
    });
    return reply.code(201).send();
  });

  app.post<{ Params: Params; Body: unknown }>(`${base}/${ZIP_NAME}`, { schema: { summary: `Replace the attachment of ${of} by the files of a zip`, status: 201, body: documented(zipAnswer), example: { data: 'UEsDBBQ...' } } }, async (req, reply) => {
    const body = objectBody(req.body);
    const added = zipContent(decodeBase64Field(body.data));
    await change(req, (entries) => {
      for (const [name, bytes] of added) {
        if (entries.has(name) && body.overwrite !== true) throw conflict('Request Error', 'Duplicate file name');
        entries.set(name, bytes);
      }
    });
    return reply.code(201).send();
  });

  app.delete<{ Params: Params }>(base, { schema: { summary: `Delete the attachment of ${of}`, answer: ref('Message'), example: { msg: 'Deleted' } } }, async (req) => {
    const table = await tableOf(req);
    await s.db.tx(async (tx) => {
      // The whole attachment goes: its zip is not read.
      const t = await lockAttachmentTarget(s, req.auth, tx, table, req.params.id);
      const a = await findAttachment(tx, req.auth, t.table.id, t.recordId, true);
      if (!a) throw notFound('Attachment not found', `No attachment for ${table.name} ${req.params.id}`);
      await tx.query('DELETE FROM ad_attachment WHERE ad_attachment_id = $1', [a.id]);
    });
    return { msg: 'Deleted' };
  });

  app.delete<{ Params: Params }>(`${base}/:fileName`, { schema: { summary: `Delete one attachment file of ${of}`, answer: ref('Message'), example: { msg: 'Deleted' } } }, async (req) => {
    await change(req, (entries, _existing, table) => {
      if (!entries.delete(req.params.fileName)) throw notFound('Attachment not found', `No attachment entry ${req.params.fileName} for ${table.name} ${req.params.id}`);
    });
    return { msg: 'Deleted' };
  });
}

/** A record whose attachment is about to change, checked and locked as for a record update. */
export interface AttachmentTarget {
  table: Table;
  recordId: number;
  recordUu: string | null;
  orgId: number;
}

/**
 * Loads a record for writing (locked, with the caller's access), which also serialises
 * concurrent changes of its attachment.
 */
export async function lockAttachmentTarget(s: Services, auth: AuthContext, tx: Tx, table: Table, idText: string): Promise<AttachmentTarget> {
  if (!table.keyColumn) throw notFound('Record not found', `${table.name} records have no single key`);
  const wc = createWriteContext(s.dictionary.current, auth, tx, s.events);
  const row = await loadForWrite(wc, table, idText);
  const clientId = table.byName.has('ad_client_id') ? Number(row.ad_client_id) : null;
  const orgId = table.byName.has('ad_org_id') ? Number(row.ad_org_id) : null;
  assertWritableRow(auth, table, clientId, orgId, 'update');
  const uu = table.uuColumn ? row[table.uuColumn.dbName] : null;
  return { table, recordId: Number(row[table.keyColumn.dbName]), recordUu: typeof uu === 'string' ? uu : null, orgId: orgId ?? 0 };
}

/** Changes the entries of a record's attachment in the request's transaction. */
async function changeEntries(
  s: Services,
  auth: AuthContext,
  tx: Tx,
  table: Table,
  idText: string,
  change: (entries: Map<string, Uint8Array>, existing: StoredAttachment | null) => void,
): Promise<void> {
  const t = await lockAttachmentTarget(s, auth, tx, table, idText);
  const existing = await loadAttachment(tx, auth, t.table.id, t.recordId, true);
  const entries = new Map(existing?.entries ?? []);
  change(entries, existing);
  await saveAttachment(tx, auth, { tableId: t.table.id, recordId: t.recordId, recordUu: t.recordUu, orgId: t.orgId }, existing, entries);
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

/** Bytes as a download, or as `{data}` in base64 with `json`; streamed either way. */
function sendBytes(reply: FastifyReply, bytes: () => AsyncIterable<Buffer>, contentType: string, fileName: string, query: unknown, size: number): FastifyReply {
  const json = (query as Record<string, unknown>).json;
  if (typeof json === 'string') return reply.type('application/json').send(base64JsonStream({}, 'data', bytes()));
  reply.type(contentType).header('Content-Length', String(size));
  reply.header('Content-Disposition', `attachment; filename="${fileName.replace(/[^\x20-\x7e]|["\\]/g, '_')}"`);
  return reply.send(pieceStream(bytes()));
}
