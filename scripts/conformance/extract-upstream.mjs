// Reads the upstream OpenAPI documents of the original REST API and writes, for the conformance
// test, what a client may rely on: every operation's parameters with their examples, the request
// bodies' examples, and each response's status, content types and schema. Prose (descriptions,
// summaries, tags) is left out; schemas keep only their structure.
// Usage: node scripts/conformance/extract-upstream.mjs [reference folder]
// (default ../shared/reference/upstream beside the checkout). Writes test/conformance/upstream/.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import YAML from 'yaml';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const from = path.resolve(process.argv[2] ?? path.join(root, '..', 'shared', 'reference', 'upstream'));
const to = path.join(root, 'test', 'conformance', 'upstream');

const DOCUMENTS = [
  { file: 'idempiere-rest.yml', name: 'idempiere-rest' },
  { file: 'idempiere-rest.PR505-status-codes.yml', name: 'idempiere-rest.PR505' },
];
const METHODS = ['get', 'post', 'put', 'delete', 'patch'];
// Schema keywords kept; the rest (description, example, title, xml, ...) is prose or tooling.
const SCHEMA_KEYWORDS = new Set([
  'type', 'properties', 'items', 'enum', 'format', 'nullable', 'oneOf', 'anyOf', 'allOf', 'not',
  'additionalProperties', 'required', 'minimum', 'maximum', 'minItems', 'maxItems', 'minLength',
  'maxLength', 'pattern', 'default', '$ref',
]);

function resolver(doc) {
  return (node) => {
    let n = node;
    const seen = new Set();
    while (n && typeof n === 'object' && typeof n.$ref === 'string' && !n.$ref.startsWith('#/components/schemas/')) {
      if (seen.has(n.$ref)) throw new Error(`circular reference ${n.$ref}`);
      seen.add(n.$ref);
      n = n.$ref.replace(/^#\//, '').split('/').reduce((o, k) => o?.[k], doc);
    }
    return n;
  };
}

/** A schema's structure only; references to component schemas point into `$defs`. */
function cleanSchema(schema) {
  if (Array.isArray(schema)) return schema.map(cleanSchema);
  if (!schema || typeof schema !== 'object') return schema;
  const out = {};
  for (const [k, v] of Object.entries(schema)) {
    if (!SCHEMA_KEYWORDS.has(k)) continue;
    if (k === '$ref') out.$ref = v.replace('#/components/schemas/', '#/$defs/');
    else if (k === 'properties') out.properties = Object.fromEntries(Object.entries(v).map(([p, s]) => [p, cleanSchema(s)]));
    else if (k === 'default' || k === 'enum') out[k] = v;
    else out[k] = cleanSchema(v);
  }
  return out;
}

function examplesOf(node) {
  if (!node) return undefined;
  if (node.examples && typeof node.examples === 'object') {
    return Object.fromEntries(Object.entries(node.examples).map(([k, e]) => [k, e && typeof e === 'object' && 'value' in e ? e.value : null]));
  }
  if (node.example !== undefined) return { example: node.example };
  return undefined;
}

function extract(doc) {
  const deref = resolver(doc);
  const operations = {};
  for (const [p, item] of Object.entries(doc.paths ?? {})) {
    const shared = (item.parameters ?? []).map(deref);
    for (const method of METHODS) {
      const op = item[method];
      if (!op) continue;
      const parameters = {};
      for (const prm of [...shared, ...(op.parameters ?? []).map(deref)]) {
        parameters[prm.name] = { in: prm.in, required: prm.required === true, schema: cleanSchema(deref(prm.schema) ?? {}), examples: examplesOf(prm) };
      }
      let requestBody;
      if (op.requestBody) {
        const rb = deref(op.requestBody);
        requestBody = Object.fromEntries(Object.entries(rb.content ?? {}).map(([ct, c]) => [ct, { schema: c.schema ? cleanSchema(deref(c.schema)) : undefined, examples: examplesOf(c) }]));
      }
      const responses = {};
      for (const [status, r0] of Object.entries(op.responses ?? {})) {
        const r = deref(r0);
        responses[status] = { content: r.content ? Object.fromEntries(Object.entries(r.content).map(([ct, c]) => [ct, c.schema ? cleanSchema(deref(c.schema)) : null])) : null };
      }
      operations[`${method.toUpperCase()} ${p}`] = { parameters, requestBody, responses };
    }
  }
  const schemas = Object.fromEntries(Object.entries(doc.components?.schemas ?? {}).map(([k, s]) => [k, cleanSchema(s)]));
  return { openapi: doc.openapi, operations, schemas };
}

fs.mkdirSync(to, { recursive: true });
for (const d of DOCUMENTS) {
  const doc = YAML.parse(fs.readFileSync(path.join(from, d.file), 'utf8'));
  const out = extract(doc);
  fs.writeFileSync(path.join(to, `${d.name}.json`), JSON.stringify({ source: d.file, ...out }, null, 1) + '\n');
  console.log(`${d.name}: ${Object.keys(out.operations).length} operations, ${Object.keys(out.schemas).length} schemas`);
}
