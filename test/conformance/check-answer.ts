import type { Answer } from './play.js';
import type { ResponseValidator } from './response-validator.js';
import type { UpstreamDocument } from './upstream-document.js';

/**
 * What is wrong with an answer by one upstream document: its status must be one the operation
 * lists, its content type one that status lists, and a JSON body must satisfy the schema.
 */
export function checkAnswer(doc: UpstreamDocument, validator: ResponseValidator, op: string, answer: Answer): string[] {
  const operation = doc.operations[op];
  if (!operation) return [`${doc.name} has no operation ${op}`];
  const documented = operation.responses[String(answer.status)];
  if (!documented) return [`status ${answer.status} is not documented (${Object.keys(operation.responses).join(', ')})`];
  const types = Object.keys(documented.content ?? {});
  // No content documented for the status: the document says nothing about the body.
  if (types.length === 0) return [];
  const type = answer.contentType;
  // `*/*` (a correction's): the answer carries the content's own type.
  if (!types.includes(type) && !(types.includes('*/*') && type !== 'application/json')) return [`content type ${type || '(none)'} is not documented for ${answer.status} (${types.join(', ')})`];
  const schema = documented.content![type] ?? null;
  if (!schema || type !== 'application/json') return [];
  return validator.validate(schema, answer.body).map((v) => `${v.at}: ${v.message}`);
}
