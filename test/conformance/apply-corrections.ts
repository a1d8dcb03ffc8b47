import { OPTIONAL } from './response-validator.js';
import type { DocumentName, Schema, UpstreamDocument } from './upstream-document.js';

/** Where in a document a correction applies: a component schema, or one response of one operation. */
export type Target =
  | { component: string; path?: string[] }
  | { operation: string; status: string; contentType?: string; path?: string[] };

interface Base {
  /** The documents it corrects (both when left out). */
  documents?: DocumentName[];
  /** What the document says and what the original does instead. */
  reason: string;
  /** The original's source that proves it: repository path and line (bxservice/idempiere-rest unless named). */
  source: string;
}

/**
 * One correction of an upstream document, where the document is wrong about its own
 * implementation:
 * - `schema`: the schema at the target is replaced;
 * - `optional`: properties the document names that the original leaves out in some answers;
 * - `response`: an answer the original gives that the operation does not list (status, content).
 */
export type Correction =
  | (Base & { kind: 'schema'; target: Target; schema: Schema })
  | (Base & { kind: 'optional'; target: Target; properties: string[]; /** names the schema does not document are passed over */ someDocumented?: boolean })
  | (Base & { kind: 'response'; operation: string; status: string; content: Record<string, Schema | null> | null });

function locate(doc: UpstreamDocument, target: Target): { holder: Record<string, any>; key: string } {
  let holder: Record<string, any>;
  let key: string;
  if ('component' in target) {
    if (!doc.schemas[target.component]) throw new Error(`${doc.name}: no component schema ${target.component}`);
    holder = doc.schemas;
    key = target.component;
  } else {
    const op = doc.operations[target.operation];
    const response = op?.responses[target.status];
    if (!response?.content) throw new Error(`${doc.name}: no response ${target.status} with content for ${target.operation}`);
    const type = target.contentType ?? 'application/json';
    if (!(type in response.content)) throw new Error(`${doc.name}: ${target.operation} ${target.status} has no ${type}`);
    holder = response.content;
    key = type;
  }
  for (const step of target.path ?? []) {
    const next = holder[key];
    if (!next || typeof next !== 'object' || !(step in next)) throw new Error(`${doc.name}: ${JSON.stringify(target)} has no ${step}`);
    holder = next;
    key = step;
  }
  return { holder, key };
}

/** A copy of the document with every correction meant for it applied; a correction that finds nothing to correct throws. */
export function applyCorrections(doc: UpstreamDocument, corrections: readonly Correction[]): UpstreamDocument {
  const out: UpstreamDocument = structuredClone(doc);
  for (const c of corrections) {
    if (c.documents && !c.documents.includes(doc.name)) continue;
    if (c.kind === 'response') {
      const op = out.operations[c.operation];
      if (!op) throw new Error(`${doc.name}: no operation ${c.operation}`);
      op.responses[c.status] = { content: c.content };
      continue;
    }
    const { holder, key } = locate(out, c.target);
    if (c.kind === 'schema') {
      holder[key] = c.schema;
    } else {
      const schema = holder[key] as Schema;
      const names = Object.keys(schema.properties ?? {});
      const unknown = c.properties.filter((p) => !names.includes(p));
      if (unknown.length && !c.someDocumented) throw new Error(`${doc.name}: ${JSON.stringify(c.target)} documents no property ${unknown.join(', ')}`);
      const optional = c.properties.filter((p) => names.includes(p));
      if (!optional.length) throw new Error(`${doc.name}: ${JSON.stringify(c.target)} documents none of ${c.properties.join(', ')}`);
      schema[OPTIONAL] = [...new Set([...(schema[OPTIONAL] ?? []), ...optional])];
    }
  }
  return out;
}
