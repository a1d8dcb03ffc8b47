// What one benchmark request looks like, described as data so that the wrk Lua script, the
// autocannon fallback and the single checking request before each scenario make the same requests.
//
// A request description: {method, path, query?, auth, body?, pathGen?, bodyGen?}
//   pathGen: {kind: 'randomInt', prefix, lo, hi}      path = prefix + random integer in [lo, hi]
//            {kind: 'randomLine', prefix, file}      path = prefix + a random line of file
//            {kind: 'randomChoice', paths}           path = one of paths, at random
//   bodyGen: {kind: 'json', value}                   a fixed JSON body
//            {kind: 'partner', orgId, groupId}       one new business partner (unique Value)
//            {kind: 'partnerBatch', size, orgId, groupId}  a batch of `size` partner creates
import fs from 'node:fs';

/** Names for the partners the create scenarios make. */
export const CREATE_FIRST = ['Anna', 'Ben', 'Clara', 'Dario', 'Eva', 'Farid', 'Greta', 'Hugo', 'Ines', 'Jonas', 'Kira', 'Leon'];
export const CREATE_LAST = ['Alvarez', 'Berg', 'Costa', 'Dorn', 'Eklund', 'Fuchs', 'Gallo', 'Haas', 'Ivanova', 'Jansen', 'Keller', 'Lind'];

/** A JS-side request generator (the Lua side is in wrk.mjs); `tag` keeps created Values unique per run. */
export function requestFactory(desc, tag) {
  const lines = desc.pathGen?.kind === 'randomLine' ? readLines(desc.pathGen.file) : null;
  let counter = 0;
  const partner = (n) => ({
    AD_Org_ID: desc.bodyGen.orgId,
    Value: `W${tag}-${n}`,
    Name: `${CREATE_FIRST[n % CREATE_FIRST.length]} ${CREATE_LAST[Math.floor(n / CREATE_FIRST.length) % CREATE_LAST.length]} Garden`,
    IsCustomer: true,
    C_BP_Group_ID: desc.bodyGen.groupId,
  });
  return () => {
    let path = desc.path;
    const g = desc.pathGen;
    if (g?.kind === 'randomInt') path = g.prefix + String(g.lo + Math.floor(Math.random() * (g.hi - g.lo + 1)));
    else if (g?.kind === 'randomLine') path = g.prefix + lines[Math.floor(Math.random() * lines.length)];
    else if (g?.kind === 'randomChoice') path = g.paths[Math.floor(Math.random() * g.paths.length)];
    let body;
    const b = desc.bodyGen;
    if (b?.kind === 'json') body = JSON.stringify(b.value);
    else if (b?.kind === 'partner') body = JSON.stringify(partner(++counter));
    else if (b?.kind === 'partnerBatch') {
      const items = [];
      for (let i = 0; i < b.size; i++) items.push({ method: 'POST', path: 'v1/models/c_bpartner', body: partner(++counter) });
      body = JSON.stringify(items);
    }
    return { method: desc.method, path, body };
  };
}

export function readLines(file) {
  const lines = fs.readFileSync(file, 'utf8').split('\n').filter((l) => l.trim() !== '');
  if (!lines.length) throw new Error(`${file} holds no lines`);
  return lines;
}

/** Headers of every request of a scenario. */
export function requestHeaders(desc, token) {
  const h = { accept: 'application/json' };
  if (desc.bodyGen) h['content-type'] = 'application/json';
  if (desc.auth && token) h.authorization = `Bearer ${token}`;
  return h;
}

/** Sends one request of a scenario with fetch: {status, body (text), ms, rowCountKind (a list's X-Row-Count-Kind, or null)}. */
export async function sendOne(baseUrl, desc, token, tag) {
  const r = requestFactory(desc, `${tag}c`)();
  const started = performance.now();
  const res = await fetch(baseUrl + r.path, { method: r.method, headers: requestHeaders(desc, token), body: r.body, signal: AbortSignal.timeout(30_000) });
  const text = await res.text();
  return { status: res.status, body: text, ms: performance.now() - started, path: r.path, rowCountKind: res.headers.get('x-row-count-kind') };
}
