import { ApiError, unauthorized } from '../errors.js';

const REALM = 'Bearer realm="dictum"';

/** 401 for a request without a usable bearer token: the error body and a WWW-Authenticate challenge. */
export const missingToken = (detail: string): ApiError => new ApiError(401, 'Unauthorized', detail, { 'WWW-Authenticate': REALM });

/** 401 for a token that is malformed, expired, revoked or not meant for this use (RFC 6750 invalid_token). */
export const tokenError = (title: string, detail: string): ApiError =>
  new ApiError(401, title, detail, { 'WWW-Authenticate': `${REALM}, error="invalid_token"` });

/** 429 with Retry-After in whole seconds. */
export const tooMany = (detail: string, retryAfterSeconds: number): ApiError =>
  new ApiError(429, 'Too Many Requests', detail, { 'Retry-After': String(Math.max(1, Math.ceil(retryAfterSeconds))) });

export const AUTH_ERROR = 'Authenticate error';
export const BAD_CREDENTIALS = 'Invalid user name or password';

/** 401 with the original's login error title. */
export const authError = (detail: string): ApiError => unauthorized(AUTH_ERROR, detail);
