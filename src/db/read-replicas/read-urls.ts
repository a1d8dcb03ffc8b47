/**
 * DATABASE_READ_URL: the streaming replicas that serve reads, a comma-separated list of
 * postgres:// URLs. Checked at start so that a typing error stops the instance with a clear
 * message rather than sending every read to the primary unnoticed.
 */
export function parseReadUrls(raw: string | undefined, databaseUrl: string | null): string[] {
  const list = (raw ?? '').split(',').map((u) => u.trim()).filter(Boolean);
  if (list.length === 0) return [];
  if (!databaseUrl) throw new Error('Configuration DATABASE_READ_URL needs DATABASE_URL: read replicas serve a PostgreSQL primary, not the embedded database');
  for (const [i, url] of list.entries()) {
    let parsed: URL | null = null;
    try {
      parsed = new URL(url);
    } catch {
      parsed = null;
    }
    if (!parsed || !/^postgres(ql)?:$/.test(parsed.protocol) || !parsed.hostname) {
      throw new Error(`Configuration DATABASE_READ_URL must be a comma-separated list of postgres:// URLs with a host; entry ${i + 1} is not one`);
    }
  }
  if (new Set(list).size !== list.length) throw new Error('Configuration DATABASE_READ_URL names a replica more than once');
  return list;
}

/** A replica's name in metrics and logs: its host, port and database, never its credentials. */
export function replicaName(url: string): string {
  const u = new URL(url);
  return `${u.hostname}:${u.port || '5432'}${u.pathname.length > 1 ? u.pathname : ''}`;
}
