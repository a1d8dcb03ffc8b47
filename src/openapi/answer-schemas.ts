import { Type, type TSchema } from '@sinclair/typebox';
import { LoginBodySchema, LoginParametersSchema, LogoutBodySchema, RefreshBodySchema, ResetCompleteBodySchema, ResetRequestBodySchema, ResetVerifyBodySchema } from '../auth/schemas.js';

/**
 * The named schemas of answers and bodies that several operations share (components/schemas).
 * Declared with TypeBox; the authentication bodies are the very schemas the routes check
 * requests with. Records of the dictionary keep `additionalProperties`: their columns depend on
 * the table (the schema named after the table lists them).
 */

/** A reference to a named component schema. */
export const ref = (name: string): TSchema => Type.Unsafe({ $ref: `#/components/schemas/${name}` });

/** An object with the properties a client can count on; others may follow. */
export const Open = <P extends Record<string, TSchema>>(properties: P, description?: string) =>
  Type.Object(properties, { additionalProperties: true, ...(description ? { description } : {}) });

/** `{ <key>: [item, ...] }`, the original's list envelope. */
export const listOf = (key: string, item: TSchema) => Type.Object({ [key]: Type.Array(item) });

/** A page of records of one kind, as `GET /models/{table}` answers it. */
export const recordsOf = (record: TSchema) =>
  Type.Object({
    'page-count': Type.Integer(),
    'records-size': Type.Integer(),
    'skip-records': Type.Integer(),
    'row-count': Type.Integer(),
    'sql-command': Type.Optional(Type.String()),
    records: Type.Optional(Type.Array(record)),
    'array-count': Type.Integer(),
  });

const Id = Type.Integer();
const IdName = Type.Object({ id: Id, name: Type.String() });
/** A dictionary row as the record serializer writes it: id, uid, model-name and its columns. */
const Row = Open({ id: Type.Optional(Id), uid: Type.Optional(Type.String()), 'model-name': Type.Optional(Type.String()) });
const SlugRow = Open({ id: Type.Optional(Id), uid: Type.Optional(Type.String()), slug: Type.Optional(Type.String()), 'model-name': Type.Optional(Type.String()) });

export const ANSWER_SCHEMAS: Record<string, TSchema> = {
  ErrorBody: Type.Object({ title: Type.String(), status: Type.Integer(), detail: Type.Optional(Type.String()), type: Type.Optional(Type.String()) }),
  Lookup: Type.Object(
    { propertyLabel: Type.Optional(Type.String()), id: Type.Union([Type.Integer(), Type.String()]), identifier: Type.Optional(Type.String()), uuid: Type.Optional(Type.String()), 'model-name': Type.Optional(Type.String()) },
    { description: 'A reference to another record' },
  ),
  ListValue: Type.Object(
    { propertyLabel: Type.Optional(Type.String()), id: Type.String(), identifier: Type.Optional(Type.String()), 'model-name': Type.Optional(Type.Literal('ad_ref_list')) },
    { description: 'A value of a list' },
  ),
  Image: Type.Object({ propertyLabel: Type.Optional(Type.String()), id: Type.Optional(Type.Integer()), data: Type.Optional(Type.String({ contentEncoding: 'base64' })), 'model-name': Type.Optional(Type.Literal('ad_image')) }),
  Record: Open(
    { id: Type.Optional(Id), uid: Type.Optional(Type.String()), 'model-name': Type.Optional(Type.String()) },
    'A record of a table: id, uid, its columns by column name, model-name (see the schema named after the table)',
  ),
  Records: recordsOf(ref('Record')),
  WindowRecords: Type.Object({
    'page-count': Type.Integer(),
    'page-size': Type.Integer(),
    'page-number': Type.Integer(),
    'row-count': Type.Integer(),
    'window-records': Type.Optional(Type.Array(Open({}))),
    'childtab-records': Type.Optional(Type.Array(Open({}))),
  }),
  Deleted: Type.Object({ msg: Type.String() }),
  Message: Open({ message: Type.Optional(Type.String()), msg: Type.Optional(Type.String()) }, 'A confirmation'),
  LoginRequest: LoginBodySchema,
  LoginParameters: LoginParametersSchema,
  RefreshRequest: RefreshBodySchema,
  LogoutRequest: LogoutBodySchema,
  PasswordResetRequest: ResetRequestBodySchema,
  PasswordResetVerify: ResetVerifyBodySchema,
  PasswordResetComplete: ResetCompleteBodySchema,
  LoginAnswer: Type.Object(
    {
      clients: Type.Optional(Type.Array(IdName, { description: 'first step: the clients the user may choose' })),
      clientId: Type.Optional(Id),
      userId: Type.Optional(Id),
      roleId: Type.Optional(Id),
      organizationId: Type.Optional(Id),
      warehouseId: Type.Optional(Id),
      language: Type.Optional(Type.String()),
      menuTreeId: Type.Optional(Id),
      token: Type.String({ description: 'the bearer token (a first-step token until a client and role are chosen)' }),
      refresh_token: Type.Optional(Type.String({ description: 'present once the login is complete' })),
    },
    { description: 'A login: the first step (clients and a first-step token) or the full login (token and refresh token)' },
  ),
  TokenPair: Type.Object({ token: Type.String(), refresh_token: Type.String() }),
  ProcessInfo: Open({
    AD_PInstance_ID: Type.Optional(Id),
    process: Type.Optional(Type.String()),
    summary: Type.Optional(Type.String()),
    isError: Type.Optional(Type.Boolean()),
    reportFile: Type.Optional(Type.String({ contentEncoding: 'base64' })),
    reportFileName: Type.Optional(Type.String()),
    reportFileLength: Type.Optional(Type.Integer()),
    nodeId: Type.Optional(Type.String()),
    logs: Type.Optional(Type.Array(Open({}))),
  }),
  Job: Open({ id: Type.Optional(Type.Union([Id, Type.String()])), processing: Type.Optional(Type.Boolean()) }, 'A process run in the background'),
  Attachments: listOf('attachments', Open({ name: Type.Optional(Type.String()), contentType: Type.Optional(Type.String()) })),
  Upload: Open({ uploadId: Type.Optional(Type.String()), fileName: Type.Optional(Type.String()), status: Type.Optional(Type.String()), expiresAt: Type.Optional(Type.String({ format: 'date-time' })) }),
  DictionaryRow: Row,
  SlugRow,
  IdName,
};
