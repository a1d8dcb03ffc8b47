import type { Db, Queryable } from '../db/types.js';
import { insertRow, ts } from './util.js';
import { notify } from '../db/notify.js';

/** NOTIFY channel carrying comma-separated AD_Session ids that were ended. */
export const SESSION_CHANNEL = 'dictum_session_revoked';

/** REST_RefreshToken.REST_RevokeCause values. */
export type RevokeCause = 'B' | 'C' | 'L' | 'M' | 'P';

export interface NewSession {
  clientId: number;
  orgId: number;
  roleId: number;
  userId: number;
  remoteAddr: string;
  remoteHost?: string;
  serverName?: string;
}

/** Opens an AD_Session for a login (WebSession 'dictum-rest'); returns its id. */
export async function openSession(q: Queryable, s: NewSession): Promise<number> {
  return insertRow(
    q,
    'AD_Session',
    {
      websession: 'dictum-rest',
      remote_addr: s.remoteAddr.slice(0, 60),
      remote_host: (s.remoteHost ?? s.remoteAddr).slice(0, 60),
      processed: 'N',
      logindate: ts(Date.now()),
      ad_role_id: s.roleId,
      servername: (s.serverName ?? '').slice(0, 80) || null,
      description: 'REST login',
    },
    { clientId: s.clientId, orgId: s.orgId, userId: s.userId },
  );
}

async function notifyEnded(q: Queryable, ids: number[]): Promise<void> {
  // NOTIFY payloads are limited to 8000 bytes: send the ids in chunks.
  for (let i = 0; i < ids.length; i += 500) {
    await notify(q, SESSION_CHANNEL, ids.slice(i, i + 500).join(','));
  }
}

/**
 * Ends sessions and revokes their refresh tokens in the caller's transaction; the NOTIFY is
 * delivered to every instance (this one included) when the transaction commits.
 */
export async function endSessions(q: Queryable, sessionIds: number[], cause: RevokeCause, suffix = 'logout'): Promise<number[]> {
  if (!sessionIds.length) return [];
  const now = ts(Date.now());
  const { rows } = await q.query<{ ad_session_id: number }>(
    `UPDATE ad_session SET processed = 'Y', updated = $2, description = COALESCE(description, '') || $3
     WHERE ad_session_id = ANY($1::bigint[]) AND processed <> 'Y' RETURNING ad_session_id`,
    [sessionIds, now, `-${suffix}`],
  );
  await q.query(
    `UPDATE rest_refreshtoken SET revokedat = $2, rest_revokecause = $3, updated = $2 WHERE ad_session_id = ANY($1::bigint[]) AND revokedat IS NULL`,
    [sessionIds, now, cause],
  );
  await notifyEnded(q, sessionIds);
  return rows.map((r) => Number(r.ad_session_id));
}

/**
 * Ends every session and refresh family of a user (password change, cause P). Exported for
 * any code that changes AD_User.Password.
 */
export async function endUserSessions(q: Queryable, userId: number, cause: RevokeCause = 'P'): Promise<number[]> {
  const now = ts(Date.now());
  const { rows } = await q.query<{ ad_session_id: number }>(
    `SELECT ad_session_id FROM ad_session WHERE createdby = $1 AND processed <> 'Y' AND websession = 'dictum-rest'`,
    [userId],
  );
  const ids = rows.map((r) => Number(r.ad_session_id));
  await endSessions(q, ids, cause, cause === 'P' ? 'password' : 'revoked');
  await q.query(
    `UPDATE rest_refreshtoken SET revokedat = $2, rest_revokecause = $3, updated = $2 WHERE ad_user_id = $1 AND revokedat IS NULL`,
    [userId, now, cause],
  );
  return ids;
}

/** How often an instance on a PostgreSQL server asks for sessions ended elsewhere (NOTIFY may be lost on a reconnect). */
const POLL_MS = 5_000;
/** Clock difference between instances that the poll tolerates. */
const POLL_MARGIN_MS = 60_000;

/**
 * Which sessions are ended, known in memory so that the authentication hot path needs no
 * database round trip. Filled by this instance's own revocations and by NOTIFY from the
 * others; a token's session is read from the database the first time a token is seen. On a PostgreSQL
 * server a light poll also picks up endings whose NOTIFY did not arrive (a dropped listening
 * connection), so NOTIFY only makes revocation faster, never decides it.
 */
export class SessionRegistry {
  #ended = new Map<number, number>();
  #unlisten: (() => Promise<void>) | null = null;
  #poll: NodeJS.Timeout | null = null;
  #lastPoll = 0;

  constructor(
    private readonly db: Db,
    private readonly retentionMs: () => number,
  ) {}

  async start(): Promise<void> {
    this.#unlisten = await this.db.listen(SESSION_CHANNEL, (payload) => {
      for (const p of payload.split(',')) {
        const id = Number(p);
        if (Number.isInteger(id) && id > 0) this.markEnded(id);
      }
    });
    // Nothing ended earlier needs loading: a token is checked against its session in the database
    // the first time this instance sees it (checkInDb), and then remembered.
    this.#lastPoll = Date.now();
    if (this.db.kind === 'pg') {
      this.#poll = setInterval(() => {
        this.loadEndedSince(this.#lastPoll - POLL_MARGIN_MS).catch(() => undefined);
      }, POLL_MS);
      this.#poll.unref();
    }
  }

  async stop(): Promise<void> {
    if (this.#poll) clearInterval(this.#poll);
    this.#poll = null;
    if (this.#unlisten) await this.#unlisten();
    this.#unlisten = null;
  }

  /** Reads the sessions ended since a moment (by their Updated time) into memory. */
  async loadEndedSince(since: number): Promise<void> {
    const now = Date.now();
    const { rows } = await this.db.query<{ ad_session_id: number }>(
      `SELECT ad_session_id FROM ad_session WHERE processed = 'Y' AND updated >= $1`,
      [ts(since)],
      { name: 'auth_sessions_ended_since' },
    );
    for (const r of rows) {
      const id = Number(r.ad_session_id);
      if (!this.#ended.has(id)) this.#ended.set(id, now);
    }
    this.#lastPoll = now;
  }

  markEnded(id: number): void {
    this.#ended.set(id, Date.now());
    if (this.#ended.size > 50_000) this.prune();
  }

  isEnded(id: number): boolean {
    return this.#ended.has(id);
  }

  /** Asks the database (first sight of a token on this instance); remembers an ended session. */
  async checkInDb(id: number): Promise<boolean> {
    const { rows } = await this.db.query<{ processed: string }>('SELECT processed FROM ad_session WHERE ad_session_id = $1', [id], { name: 'auth_session_state' });
    const ended = !rows.length || rows[0]!.processed === 'Y';
    if (ended) this.markEnded(id);
    return !ended;
  }

  /** Forgets ended sessions older than the longest token lifetime; answers how many. */
  prune(now = Date.now()): number {
    const keep = this.retentionMs();
    let n = 0;
    for (const [id, at] of this.#ended) {
      if (now - at > keep) {
        this.#ended.delete(id);
        n++;
      }
    }
    return n;
  }
}
