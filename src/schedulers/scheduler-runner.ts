import { claimsOfUser } from '../auth/run-as.js';
import type { AccessClaims } from '../auth/service.js';
import type { Tx } from '../db/types.js';
import { processById } from '../processes/process-definition.js';
import { queueProcessJob } from '../processes/process-jobs.js';
import type { Services } from '../services.js';
import { latestDue, MISSED_FIRING_GRACE_MS, nextDue, type ScheduleSpec } from './schedule-plan.js';
import { SCHEDULER_STARTED } from './scheduler-state.js';

/** A scheduler as the runner fires it: its process, supervisor, client, organisation and schedule. */
export interface ManagedScheduler extends ScheduleSpec {
  id: number;
  name: string;
  clientId: number;
  orgId: number;
  processId: number;
  supervisorId: number;
}

/** Thrown inside a firing's transaction when another instance fired it first: the run is not queued. */
class AlreadyFired extends Error {}

interface Row {
  ad_scheduler_id: number;
  name: string;
  ad_client_id: number;
  ad_org_id: number;
  ad_process_id: number;
  supervisor_id: number;
  scheduletype: string | null;
  frequency: number | null;
  frequencytype: string | null;
  cronpattern: string | null;
}

const SELECT_SCHEDULER = `SELECT r.ad_scheduler_id, r.name, r.ad_client_id, r.ad_org_id, r.ad_process_id, r.supervisor_id, c.scheduletype, c.frequency, c.frequencytype, c.cronpattern
  FROM ad_scheduler r JOIN ad_schedule c ON c.ad_schedule_id = r.ad_schedule_id`;

/** The schedulers that fire: active, with an active schedule, and started in the server manager. */
export async function managedSchedulers(s: Services): Promise<ManagedScheduler[]> {
  const { rows } = await s.db.query<Row>(`${SELECT_SCHEDULER} WHERE r.isactive = 'Y' AND c.isactive = 'Y' AND r.schedulerstate = $1 ORDER BY r.ad_scheduler_id`, [SCHEDULER_STARTED]);
  return rows.map(managedScheduler);
}

/** One scheduler as the runner would fire it, whatever its state (a run on request); null when it has no schedule. */
export async function schedulerToRun(s: Services, id: number): Promise<ManagedScheduler | null> {
  const { rows } = await s.db.query<Row>(`${SELECT_SCHEDULER} WHERE r.ad_scheduler_id = $1`, [id]);
  return rows[0] ? managedScheduler(rows[0]) : null;
}

function managedScheduler(r: Row): ManagedScheduler {
  return {
    id: Number(r.ad_scheduler_id),
    name: r.name,
    clientId: Number(r.ad_client_id),
    orgId: Number(r.ad_org_id),
    processId: Number(r.ad_process_id),
    supervisorId: Number(r.supervisor_id),
    scheduleType: r.scheduletype,
    frequency: r.frequency === null ? null : Number(r.frequency),
    frequencyType: r.frequencytype,
    cronPattern: r.cronpattern,
  };
}

/**
 * Every instance runs this loop; each due firing of each managed scheduler is claimed by inserting
 * its (scheduler, due time) row, so exactly one instance queues the run, whichever is first. The run
 * itself goes through the job queue, whose leases hand it to another instance if this one dies, and
 * the loop of every other instance goes on claiming the next firings.
 */
export class SchedulerRunner {
  readonly #s: Services;
  readonly #tickMs: number;
  #timer: NodeJS.Timeout | null = null;
  #ticking: Promise<void> | null = null;
  /** The due time last tried per scheduler (won or lost): it is not tried again. */
  readonly #tried = new Map<number, number>();
  started = false;
  lastRun: Date | null = null;
  runs = 0;
  fired = 0;
  /** Firings this instance claimed but could not queue (no supervisor role, a process that refuses the run). */
  failed = 0;
  /** Told of each firing this instance queued, and of each that failed (the server's log). */
  report: (summary: string, reference: string, error: boolean) => void = () => undefined;

  get tickMs(): number {
    return this.#tickMs;
  }

  constructor(s: Services, tickMs: number) {
    this.#s = s;
    this.#tickMs = tickMs;
  }

  start(): void {
    if (this.#timer) return;
    this.started = true;
    this.#timer = setInterval(() => void this.runNow(), this.#tickMs);
    this.#timer.unref();
  }

  async stop(): Promise<void> {
    this.started = false;
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = null;
    await this.#ticking;
  }

  /** One pass over the managed schedulers (the timer's, or POST /servers/{id}/run). */
  runNow(): Promise<void> {
    if (!this.#ticking) {
      this.#ticking = this.#tick(new Date())
        .catch((err: unknown) => this.#s.log.warn({ err }, 'scheduler pass failed'))
        .finally(() => {
          this.#ticking = null;
        });
    }
    return this.#ticking;
  }

  async #tick(now: Date): Promise<void> {
    this.runs++;
    this.lastRun = now;
    for (const sc of await managedSchedulers(this.#s)) {
      const due = latestDue(sc, now);
      if (!due || now.getTime() - due.getTime() > MISSED_FIRING_GRACE_MS) continue;
      if (this.#tried.get(sc.id) === due.getTime()) continue;
      this.#tried.set(sc.id, due.getTime());
      try {
        if (await this.#fire(sc, due, now)) {
          this.fired++;
          this.report(`${sc.name}: run queued for ${due.toISOString()}`, `AD_Scheduler_ID=${sc.id}`, false);
        }
      } catch (err) {
        this.failed++;
        this.#s.log.warn({ err, scheduler: sc.id }, 'scheduled run could not be queued');
        this.report(`${sc.name}: ${err instanceof Error ? err.message : String(err)}`, `AD_Scheduler_ID=${sc.id}`, true);
      }
    }
  }

  /**
   * One run of a scheduler now, on request (POST /servers/{id}/run), whether it is started or not:
   * claimed and queued as a firing at this moment. Answers whether the run was queued.
   */
  async runOnRequest(sc: ManagedScheduler): Promise<boolean> {
    const now = new Date();
    try {
      const queued = await this.#fire(sc, now, now);
      if (queued) {
        this.fired++;
        this.report(`${sc.name}: run queued on request`, `AD_Scheduler_ID=${sc.id}`, false);
      }
      return queued;
    } catch (err) {
      this.failed++;
      this.report(`${sc.name}: ${err instanceof Error ? err.message : String(err)}`, `AD_Scheduler_ID=${sc.id}`, true);
      throw err;
    }
  }

  /**
   * Claims the firing (scheduler, due) and queues its run in one transaction. A firing that cannot
   * be queued (no role for the supervisor, a process that refuses the run) is claimed as failed,
   * with the reason, so that exactly one instance reports it and the scheduler's log shows it; the
   * error is then thrown. False when another instance claimed the firing first.
   */
  async #fire(sc: ManagedScheduler, due: Date, now: Date): Promise<boolean> {
    const s = this.#s;
    const claim = async (tx: Tx) => {
      const { rowCount } = await tx.query(
        `INSERT INTO dictum.scheduler_firing (ad_scheduler_id, due_at, node_id) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING`,
        [sc.id, due, s.nodes.id],
      );
      if (rowCount === 0) throw new AlreadyFired();
      await tx.query(`UPDATE ad_scheduler SET datelastrun = $2, datenextrun = $3 WHERE ad_scheduler_id = $1`, [sc.id, due, nextDue(sc, now)]);
      // The firing names its run in the same transaction: a crash right after the commit must not
      // leave a claimed firing whose run was queued but is not linked to it.
      return (instanceId: number) => tx.query('UPDATE dictum.scheduler_firing SET ad_pinstance_id = $3 WHERE ad_scheduler_id = $1 AND due_at = $2', [sc.id, due, instanceId]).then(() => undefined);
    };
    try {
      const auth = await s.auth.contextOf(await schedulerClaims(s, sc));
      const def = await processById(s.db, sc.processId);
      const job = await queueProcessJob(s, auth, def, {}, claim);
      s.log.info({ scheduler: sc.id, due: due.toISOString(), instance: job.id }, 'scheduled run queued');
      return true;
    } catch (e) {
      if (e instanceof AlreadyFired) return false;
      const reason = e instanceof Error ? e.message : String(e);
      const { rowCount } = await s.db.query(
        `INSERT INTO dictum.scheduler_firing (ad_scheduler_id, due_at, node_id, summary, is_error) VALUES ($1, $2, $3, $4, true) ON CONFLICT DO NOTHING`,
        [sc.id, due, s.nodes.id, reason.slice(0, 2000)],
      );
      if (rowCount === 0) return false;
      throw e;
    }
  }
}

/**
 * A scheduled run acts as the scheduler's supervisor in the scheduler's client (see claimsOfUser:
 * the supervisor's first active role there). A tenant's scheduler whose supervisor has no role in
 * that client does not run.
 */
async function schedulerClaims(s: Services, sc: ManagedScheduler): Promise<AccessClaims> {
  const claims = await claimsOfUser(s.db, sc.supervisorId, sc.clientId, sc.orgId);
  if (!claims) throw new Error(`the supervisor (user ${sc.supervisorId}) has no active role in client ${sc.clientId}`);
  return claims;
}
