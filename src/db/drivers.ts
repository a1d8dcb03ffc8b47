// Each driver is loaded only when used: an instance on a server never holds PGlite's code, an
// embedded one never holds pg's (about 5 and 10 MB of a process's memory). Every opener of a
// database goes through these two, so that each driver's code is loaded from one place.
export const openPglite: typeof import('./pglite-db.js').openPglite = async (o) => (await import('./pglite-db.js')).openPglite(o);
export const openPg: typeof import('./pg-db.js').openPg = async (o) => (await import('./pg-db.js')).openPg(o);
