/** Who sends a request: the demo logins the conformance run holds tokens of. */
export type Login = 'admin' | 'user' | 'system' | 'none';

/** Values gathered from earlier answers (ids, tokens) for later requests. */
export type Context = Record<string, any>;

const EXAMPLE = Symbol('example');

/** A value taken from the upstream document's example of that name (for the parameter or body it stands in). */
export interface ExampleRef {
  [EXAMPLE]: true;
  name: string;
  /** Replaces the example's value where it names something of the author's database (an id another answer gives). */
  adjust?: (value: any, ctx: Context) => unknown;
}

export type Value = string | number | boolean | ExampleRef | ((ctx: Context) => unknown);

/** One request of the conformance run, against one operation of the upstream documents. */
export interface Play {
  /** The operation as the documents key it: `GET /models/{tableName}`. */
  op: string;
  /** What the request shows, for the test's name. */
  title?: string;
  as?: Login;
  path?: Record<string, Value>;
  query?: Record<string, Value>;
  headers?: Record<string, Value>;
  /** A JSON body: a value, an example reference, or a function of the context. */
  body?: Value | object;
  /** A raw body (bytes) with its content type. */
  raw?: (ctx: Context) => { type: string; bytes: Uint8Array };
  /** The status this request must get. */
  expect: number;
  /** Keeps what later requests need from the answer. */
  then?: (ctx: Context, answer: Answer) => void;
}

export interface Answer {
  status: number;
  contentType: string;
  headers: Headers;
  /** The parsed JSON body, or the text for other types. */
  body: any;
  bytes: Uint8Array;
}

export function ex(name: string, adjust?: (value: any, ctx: Context) => unknown): ExampleRef {
  return { [EXAMPLE]: true, name, adjust };
}

export function isExample(v: unknown): v is ExampleRef {
  return typeof v === 'object' && v !== null && (v as ExampleRef)[EXAMPLE] === true;
}
