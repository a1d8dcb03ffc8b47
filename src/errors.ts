/**
 * The one error type of the service. Anything thrown while handling a request ends up
 * rendered as the spec's error body {title, status, detail}.
 */
export class ApiError extends Error {
  readonly status: number;
  readonly title: string;
  readonly detail: string;
  /** Extra response headers, e.g. WWW-Authenticate on 401. */
  readonly headers: Record<string, string>;

  constructor(status: number, title: string, detail = '', headers: Record<string, string> = {}) {
    super(detail ? `${title}: ${detail}` : title);
    this.name = 'ApiError';
    this.status = status;
    this.title = title;
    this.detail = detail;
    this.headers = headers;
  }

  toBody(): { title: string; status: number; detail?: string } {
    return this.detail ? { title: this.title, status: this.status, detail: this.detail } : { title: this.title, status: this.status };
  }
}

export const badRequest = (title: string, detail = ''): ApiError => new ApiError(400, title, detail);
export const unauthorized = (title: string, detail = ''): ApiError =>
  new ApiError(401, title, detail, { 'WWW-Authenticate': 'Bearer realm="dictum"' });
export const forbidden = (title: string, detail = ''): ApiError => new ApiError(403, title, detail);
export const notFound = (title: string, detail = ''): ApiError => new ApiError(404, title, detail);
export const conflict = (title: string, detail = ''): ApiError => new ApiError(409, title, detail);
export const tooManyRequests = (title: string, detail = ''): ApiError => new ApiError(429, title, detail);
export const notImplemented = (title: string, detail = ''): ApiError => new ApiError(501, title, detail);

export const isApiError = (e: unknown): e is ApiError => e instanceof ApiError;
