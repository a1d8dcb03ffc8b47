import net from 'node:net';
import type { Queryable } from '../db/types.js';
import type { Logger } from 'pino';
import type { Services } from '../services.js';
import { verifyPassword } from './passwords.js';

/** The demo users and the passwords the README documents for them. */
export const DEMO_PASSWORDS: Readonly<Record<string, string>> = {
  GardenAdmin: 'GardenAdmin',
  GardenUser: 'GardenUser',
  WebService: 'WebService',
  SuperUser: 'System',
};

const LOOPBACK = new net.BlockList();
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4');
LOOPBACK.addAddress('::1', 'ipv6');
LOOPBACK.addSubnet('::ffff:127.0.0.0', 104, 'ipv6');

/** Whether a listen address is reachable from this machine only. */
export function isLoopback(host: string): boolean {
  const h = host.trim().toLowerCase().replace(/^\[|\]$/g, '');
  if (h === 'localhost') return true;
  const family = net.isIP(h);
  return family !== 0 && LOOPBACK.check(h, family === 4 ? 'ipv4' : 'ipv6');
}

/** The active demo users that still log in with their documented password. */
export async function usersWithDemoPasswords(db: Queryable): Promise<string[]> {
  const { rows } = await db.query<{ name: string; password: string | null }>(
    `SELECT name, password FROM ad_user WHERE isactive = 'Y' AND name = ANY($1::text[]) ORDER BY name`,
    [Object.keys(DEMO_PASSWORDS)],
  );
  const found: string[] = [];
  for (const r of rows) if (await verifyPassword(r.password, DEMO_PASSWORDS[r.name]!)) found.push(r.name);
  return [...new Set(found)];
}

/**
 * At start: warns when the instance listens beyond this machine while demo users still have their
 * documented passwords. Checked in the background (four password hashes) and only off loopback.
 */
export function warnOfDemoPasswords(s: Pick<Services, 'db' | 'config'>, log: Pick<Logger, 'warn'>): Promise<void> {
  if (isLoopback(s.config.host)) return Promise.resolve();
  return usersWithDemoPasswords(s.db).then(
    (users) => {
      if (users.length) {
        log.warn(
          { users, host: s.config.host },
          `the demo users ${users.join(', ')} still have their documented passwords and the service listens on ${s.config.host}, beyond this machine: change the passwords (PUT /api/v1/models/ad_user/<id>) or set HOST=127.0.0.1`,
        );
      }
    },
    () => undefined,
  );
}
