import { badRequest } from '../errors.js';

const BASE64 = /^[A-Za-z0-9+/\r\n]*={0,2}\s*$/;

/** The bytes of a mandatory base64 `data` property: 400 when it is missing or not base64. */
export function decodeBase64Field(value: unknown): Uint8Array {
  if (typeof value !== 'string' || value === '') throw badRequest('Request Error', 'data property is mandatory');
  if (!BASE64.test(value)) throw badRequest('Request Error', 'data property is not base64');
  return new Uint8Array(Buffer.from(value, 'base64'));
}
