import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { clearRoleType } from '../../../src/auth/clear-role-type.js';
import { applyCorrections } from '../../conformance/apply-corrections.js';
import { checkAnswer } from '../../conformance/check-answer.js';
import { CORRECTIONS } from '../../conformance/corrections.js';
import { DELIBERATE_DEVIATIONS } from '../../conformance/deviations.js';
import { isExample, type Answer, type Context, type Play, type Value } from '../../conformance/play.js';
import { PLAYS } from '../../conformance/plays.js';
import { ResponseValidator } from '../../conformance/response-validator.js';
import { DOCUMENT_NAMES, loadUpstreamDocument, type Operation, type UpstreamDocument } from '../../conformance/upstream-document.js';
import { EXAMPLE_EXEMPTIONS } from '../../conformance/example-exemptions.js';
import { setSysConfig } from '../auth/auth-helpers.js';

// Plays every operation of the upstream OpenAPI documents against a fresh server and checks
// each answer by each document: a documented status, a documented content type, and a body that
// has every property the schema names with the documented types and formats
// (test/conformance/response-validator.ts). The documents' own corrections are in
// test/conformance/corrections.ts, each with the original's source line that proves it.

const documents: { doc: UpstreamDocument; validator: ResponseValidator }[] = DOCUMENT_NAMES.map((name) => {
  const doc = applyCorrections(loadUpstreamDocument(name), [...CORRECTIONS, ...DELIBERATE_DEVIATIONS]);
  return { doc, validator: new ResponseValidator(doc) };
});

/** (document, scope, parameter or body, example name) of every example played. */
const played = new Set<string>();
const exampleKey = (doc: string, scope: string, where: string, name: string): string => `${doc}|${scope}|${where}|${name}`;
/** Path parameters are declared once for a path and shared by its operations; the rest per operation. */
const scopeOf = (op: string, where: string, operation: Operation): string =>
  operation.parameters[where]?.in === 'path' ? op.slice(op.indexOf(' ') + 1) : op;

function exampleValue(play: Play, where: string, name: string): unknown {
  let found: { value: unknown } | undefined;
  for (const { doc } of documents) {
    const operation = doc.operations[play.op];
    if (!operation) continue;
    const examples = where === '(body)' ? Object.values(operation.requestBody ?? {})[0]?.examples : operation.parameters[where]?.examples;
    if (!examples || !(name in examples)) continue;
    played.add(exampleKey(doc.name, scopeOf(play.op, where, operation), where, name));
    found ??= { value: examples[name] };
  }
  if (!found) throw new Error(`${play.op}: no example ${name} for ${where}`);
  return found.value;
}

function resolve(play: Play, where: string, v: Value | object | undefined, ctx: Context): unknown {
  if (typeof v === 'function') return v(ctx);
  if (isExample(v)) {
    const value = exampleValue(play, where, v.name);
    return v.adjust ? v.adjust(value, ctx) : value;
  }
  return v;
}

async function send(server: TestServer, play: Play, ctx: Context): Promise<Answer> {
  const [method, template] = play.op.split(' ') as [string, string];
  const pathText = template.replace(/\{([^}]+)\}/g, (_m, name: string) => encodeURIComponent(String(resolve(play, name, play.path?.[name], ctx))));
  const query = new URLSearchParams();
  for (const [k, v] of Object.entries(play.query ?? {})) {
    const value = resolve(play, k, v, ctx);
    // An example of no value (noFilter, noSelect, ...) stands for leaving the parameter out.
    if (value !== '' && value !== null && value !== undefined) query.set(k, String(value));
  }
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(play.headers ?? {})) headers[k] = String(resolve(play, k, v, ctx));
  const as = play.as ?? 'admin';
  if (as !== 'none' && !headers.authorization) headers.authorization = `Bearer ${ctx.tokens[as]}`;
  let body: BodyInit | undefined;
  if (play.raw) {
    const raw = play.raw(ctx);
    headers['content-type'] = raw.type;
    body = new Blob([raw.bytes as Uint8Array<ArrayBuffer>]);
  } else if (play.body !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(resolve(play, '(body)', play.body as Value, ctx));
  }
  const qs = query.toString();
  const res = await fetch(`${server.url}/api/v1${pathText}${qs ? `?${qs}` : ''}`, { method, headers, body });
  const bytes = new Uint8Array(await res.arrayBuffer());
  const contentType = (res.headers.get('content-type') ?? '').split(';')[0]!.trim();
  let parsed: unknown = null;
  if (contentType === 'application/json' && bytes.length) parsed = JSON.parse(Buffer.from(bytes).toString('utf8'));
  else if (contentType.startsWith('text/') || contentType === 'application/yaml') parsed = Buffer.from(bytes).toString('utf8');
  return { status: res.status, contentType, headers: res.headers, body: parsed, bytes };
}

describe('answers conform to the upstream OpenAPI documents', () => {
  let server: TestServer;
  let logDir = '';
  const ctx: Context = { tokens: {} };
  before(async () => {
    // A log folder, as a served instance has, for the node log operations.
    logDir = fs.mkdtempSync(path.join(os.tmpdir(), 'dictum-conformance-logs-'));
    server = await startTestServer({ DICTUM_LOG_DIR: logDir, LOG_LEVEL: 'info' });
    // The System login of the documents' examples needs the System role opened to REST (README).
    await clearRoleType(server.services.db, 0);
    // The documents' examples log in by e-mail address too, which the original allows when this is set.
    await setSysConfig(server, 'USE_EMAIL_FOR_LOGIN', 'Y');
  });
  after(async () => {
    await server?.close();
    fs.rmSync(logDir, { recursive: true, force: true });
  });

  PLAYS.forEach((play, i) => {
    it(`${String(i + 1).padStart(3, '0')} ${play.op}${play.title ? ` (${play.title})` : ''}`, async () => {
      const answer = await send(server, play, ctx);
      const problems: string[] = [];
      if (answer.status !== play.expect) problems.push(`status ${answer.status}, expected ${play.expect}`);
      for (const { doc, validator } of documents) {
        if (!doc.operations[play.op]) continue;
        for (const p of checkAnswer(doc, validator, play.op, answer)) problems.push(`${doc.name}: ${p}`);
      }
      // Later plays need the ids of this answer even when its shape is wrong.
      if (answer.status === play.expect) play.then?.(ctx, answer);
      const shown = answer.contentType === 'application/json' || typeof answer.body === 'string' ? JSON.stringify(answer.body)?.slice(0, 400) : `${answer.bytes.length} bytes of ${answer.contentType}`;
      assert.deepEqual(problems, [], `answer: ${shown}`);
    });
  });

  for (const { doc } of documents) {
    it(`plays every operation of ${doc.name}`, () => {
      const playedOps = new Set(PLAYS.map((p) => p.op));
      assert.deepEqual(Object.keys(doc.operations).filter((op) => !playedOps.has(op)), []);
    });

    it(`plays every example of ${doc.name}`, () => {
      const missing: string[] = [];
      for (const [op, operation] of Object.entries(doc.operations)) {
        const sources: [string, Record<string, unknown> | undefined][] = [
          ...Object.entries(operation.parameters).map(([name, p]) => [name, p.examples] as [string, Record<string, unknown> | undefined]),
          ['(body)', Object.values(operation.requestBody ?? {})[0]?.examples],
        ];
        for (const [where, examples] of sources) {
          for (const [name, value] of Object.entries(examples ?? {})) {
            if (value === '' || value === null) continue; // "no value": the parameter left out, as most plays do
            const scope = scopeOf(op, where, operation);
            if (played.has(exampleKey(doc.name, scope, where, name))) continue;
            if (EXAMPLE_EXEMPTIONS.some((e) => e.where === where && (e.name === name || e.name === '*') && (e.scope === undefined || e.scope === scope))) continue;
            missing.push(`${scope} ${where} ${name}`);
          }
        }
      }
      assert.deepEqual([...new Set(missing)], []);
    });
  }
});
