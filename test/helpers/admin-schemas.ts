import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { Ajv, type ValidateFunction } from 'ajv';
import { parse } from 'yaml';
import { projectRoot } from '../../src/paths.js';

/**
 * The response schemas of the upstream OpenAPI documents (idempiere-rest.yml and the PR505 one),
 * for the administration answers: an answer must satisfy both. The documents live beside the
 * project (../shared/reference/upstream, or DICTUM_UPSTREAM_DIR); `upstreamDocsMissing` says why the
 * checks cannot run where they are absent.
 */
const DIR = process.env.DICTUM_UPSTREAM_DIR ?? path.resolve(projectRoot, '..', 'shared', 'reference', 'upstream');
const FILES = ['idempiere-rest.yml', 'idempiere-rest.PR505-status-codes.yml'];

export const upstreamDocsMissing: string | false = FILES.every((f) => fs.existsSync(path.join(DIR, f))) ? false : `the upstream OpenAPI documents are not in ${DIR}`;

type Json = Record<string, any>;

/**
 * Where a document is wrong about its own implementation, the schema is corrected here, one entry
 * per correction, with the line of the original's source (bxservice/idempiere-rest) that proves it.
 */
const CORRECTIONS: { why: string; apply: (doc: Json) => void }[] = [
  {
    // ServerResourceImpl.getServers: server.addProperty("port", instance.getClusterMember().getPort()); -- an int, written as a JSON number.
    why: 'ServerJob.port is an integer, as ServerJobInfo.port',
    apply: (doc) => {
      doc.components.schemas.ServerJob.properties.port = { type: 'integer' };
    },
  },
  {
    // LookupTypeConverter.addRecordIdProperty: else ref.addProperty("id", value.toString()); -- EntityType is keyed by its text ('D').
    why: 'Task.EntityType.id is the entity type text',
    apply: (doc) => {
      doc.components.schemas.Task.properties.EntityType.properties.id = { type: 'string' };
    },
  },
];

/** Formats the documents use, checked as the original writes them (int64 and friends are plain numbers). */
function addFormats(ajv: Ajv): void {
  ajv.addFormat('date-time', /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/);
  ajv.addFormat('date', /^\d{4}-\d{2}-\d{2}$/);
  ajv.addFormat('uuid', /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i);
  ajv.addFormat('byte', /^[A-Za-z0-9+/]*={0,2}$/);
  for (const f of ['int32', 'int64', 'float', 'double', 'binary', 'password', 'uri', 'email']) ajv.addFormat(f, true);
}

let validators: { name: string; doc: Json; ajv: Ajv }[] | null = null;

function documents(): { name: string; doc: Json; ajv: Ajv }[] {
  if (validators) return validators;
  validators = FILES.map((name) => {
    const doc = parse(fs.readFileSync(path.join(DIR, name), 'utf8')) as Json;
    for (const c of CORRECTIONS) c.apply(doc);
    const ajv = new Ajv({ strict: false, allErrors: true, validateSchema: false });
    addFormats(ajv);
    ajv.addSchema(doc, name);
    return { name, doc, ajv };
  });
  return validators;
}

const pointer = (s: string): string => s.replace(/~/g, '~0').replace(/\//g, '~1');
const compiled = new Map<string, ValidateFunction>();

/**
 * Asserts that an answer matches the JSON response schema both documents give for the operation
 * (path as the documents write it, e.g. `/servers/{id}`), status included.
 */
export function assertUpstreamShape(method: string, docPath: string, r: { status: number; body: unknown }, status = r.status): void {
  assert.equal(r.status, status, `${method} ${docPath}: ${JSON.stringify(r.body).slice(0, 300)}`);
  for (const { name, doc, ajv } of documents()) {
    const op = doc.paths?.[docPath]?.[method.toLowerCase()];
    assert.ok(op, `${name} describes ${method} ${docPath}`);
    const schema = op.responses?.[String(status)]?.content?.['application/json']?.schema;
    assert.ok(schema, `${name} gives a JSON schema for ${method} ${docPath} ${status}`);
    const ref = `${name}#/paths/${pointer(docPath)}/${method.toLowerCase()}/responses/${status}/content/${pointer('application/json')}/schema`;
    let validate = compiled.get(ref);
    if (!validate) {
      validate = ajv.compile({ $ref: ref });
      compiled.set(ref, validate);
    }
    assert.ok(validate(r.body), `${name}: ${method} ${docPath} ${status} does not match: ${JSON.stringify(validate.errors?.slice(0, 4))} in ${JSON.stringify(r.body).slice(0, 400)}`);
  }
}
