/** One request to a started instance with a token: the parsed answer, or an error naming the status and the start of the body. */
export async function call(server, token, method, p, body) {
  const r = await fetch(server.baseUrl + p, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(600_000),
  });
  const text = await r.text();
  if (r.status < 200 || r.status > 299) throw new Error(`${method} ${p} answered ${r.status}: ${text.slice(0, 800)}`);
  return JSON.parse(text);
}

/** Completes a document through the API (PUT {"doc-action":"CO"}); an error unless it ends completed. */
export async function completeDocument(server, token, table, id) {
  const done = await call(server, token, 'PUT', `/api/v1/models/${table}/${id}`, { 'doc-action': 'CO' });
  if (done.DocStatus?.id !== 'CO') throw new Error(`${table} ${id} ended in ${JSON.stringify(done.DocStatus)}`);
}
