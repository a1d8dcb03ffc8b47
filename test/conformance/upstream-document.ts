import fs from 'node:fs';
import path from 'node:path';
import { projectRoot } from '../../src/paths.js';

/** A schema as the upstream documents write it (OpenAPI 3.0), structure only. */
export type Schema = Record<string, any>;

export interface Parameter {
  in: 'path' | 'query' | 'header';
  required: boolean;
  schema: Schema;
  examples?: Record<string, unknown>;
}

export interface Operation {
  parameters: Record<string, Parameter>;
  requestBody?: Record<string, { schema?: Schema; examples?: Record<string, unknown> }>;
  /** status -> content type -> schema (null: no schema; content null: no body documented) */
  responses: Record<string, { content: Record<string, Schema | null> | null }>;
}

export interface UpstreamDocument {
  name: DocumentName;
  operations: Record<string, Operation>;
  schemas: Record<string, Schema>;
}

export const DOCUMENT_NAMES = ['idempiere-rest', 'idempiere-rest.PR505'] as const;
export type DocumentName = (typeof DOCUMENT_NAMES)[number];

/**
 * The upstream OpenAPI documents as extracted by scripts/conformance/extract-upstream.mjs
 * (test/conformance/upstream/), read as they are; corrections are applied by the caller.
 */
export function loadUpstreamDocument(name: DocumentName): UpstreamDocument {
  const file = path.join(projectRoot, 'test', 'conformance', 'upstream', `${name}.json`);
  const raw = JSON.parse(fs.readFileSync(file, 'utf8'));
  return { name, operations: raw.operations, schemas: raw.schemas };
}

/** The operation key (`GET /models/{tableName}`) a request path matches, given the document's templates. */
export function operationKeyOf(method: string, template: string): string {
  return `${method.toUpperCase()} ${template}`;
}
