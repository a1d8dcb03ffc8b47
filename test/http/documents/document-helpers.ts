import assert from 'node:assert/strict';
import type { TestServer } from '../../helpers/server.js';

export const q = (s: string) => encodeURIComponent(s);
export const idOf = (v: unknown): unknown => (v && typeof v === 'object' ? (v as { id: unknown }).id : v);
export const today = () => new Date().toISOString().slice(0, 10);

export interface TaxRow {
  tax: number;
  base: number;
  amount: number;
}

/** A document with its lines and tax rows, as a client reads it (lines by line number, taxes by tax id). */
export async function readDocument(server: TestServer, token: string, header: string, line: string, tax: string, id: number) {
  const r = await server.request('GET', `/api/v1/models/${header.toLowerCase()}/${id}?$expand=${q(`${line}($orderby=Line),${tax}`)}`, { token });
  assert.equal(r.status, 200, r.text);
  const taxes: TaxRow[] = (r.body[tax] ?? [])
    .map((t: Record<string, unknown>) => ({ tax: idOf(t.C_Tax_ID), base: t.TaxBaseAmt, amount: t.TaxAmt }))
    .sort((a: TaxRow, b: TaxRow) => a.tax - b.tax);
  return { header: r.body, lines: (r.body[line] ?? []) as Record<string, any>[], taxes };
}

/** Requests as the current user (or another token), and requests that must succeed (200 or 201), answering their body. */
export function documentCalls(at: () => { server: TestServer; token: string }) {
  const call = (method: string, path: string, body?: unknown, token = at().token) => at().server.request(method, path, { token, body });
  const ok = async (method: string, path: string, body?: unknown) => {
    const r = await call(method, path, body);
    assert.ok(r.status === 200 || r.status === 201, `${method} ${path}: ${r.status} ${r.text}`);
    return r.body;
  };
  return { call, ok };
}
