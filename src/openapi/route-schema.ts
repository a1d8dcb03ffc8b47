import { Type, type TSchema } from '@sinclair/typebox';
import { Open, ref } from './answer-schemas.js';

/**
 * What a route declares of itself in its `schema` option, where it is registered. Fastify checks
 * `body`, `querystring` and `params` against the schemas given there (see
 * src/http/schema-validation.ts); the other keys are read by the OpenAPI document only (see
 * route-catalogue.ts), which is built from the registered routes.
 */
declare module 'fastify' {
  interface FastifySchema {
    /** One line of what the operation does. */
    summary?: string;
    description?: string;
    /** Success status (200 unless said). */
    status?: number;
    /**
     * The JSON answer, for the document only: answers are not serialised with it (a closed
     * schema would drop the columns a record has beyond those it names).
     */
    answer?: TSchema;
    /** Answers in other media types (files, images, text), by media type. */
    binary?: readonly string[];
    /** The body's media type (application/json unless said). */
    bodyType?: string;
    /** An example of the body when there is one, else of the JSON answer. */
    example?: unknown;
    /** Query parameters the document lists, for routes without a querystring schema or `config.queryParameters`. */
    queryNames?: readonly string[];
  }
}

export { documented } from '../http/schema-validation.js';

// Pieces several capabilities' route schemas share.

/** Any JSON object. */
export const OBJECT = Open({});
/** A file answer. */
export const FILE = ['application/octet-stream'];
export const recordsExample = { 'page-count': 1, 'records-size': 1, 'skip-records': 0, 'row-count': 1, 'array-count': 1, records: [{ id: 118, uid: 'a5c1c4ab-4b8b-4b45-a4b3-2b6e7a0b0c11', Name: 'Joe Block', 'model-name': 'c_bpartner' }] };
export const windowRecordsExample = { 'page-count': 1, 'page-size': 100, 'page-number': 1, 'row-count': 1, 'window-records': [{ id: 102, documentNo: '80000' }] };
/** The answer of a delete. */
export const deleted = { answer: ref('Deleted'), example: { msg: 'Deleted' } };
export const processInfoExample = { AD_PInstance_ID: 1000000, process: 'Order Print', summary: '', isError: false, reportFileName: 'order.pdf', reportFileLength: 2048, nodeId: 'node-1', logs: [] };
/** A file added to an attachment. */
export const attachmentBody = Type.Object({ name: Type.String({ description: 'file name' }), data: Type.String({ contentEncoding: 'base64' }), overwrite: Type.Optional(Type.Boolean()) });
