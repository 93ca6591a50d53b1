import type { EntityManager } from 'typeorm';
import { ActionEntity, PromotionWindow, QueueableAction, ScheduleStorePort } from '@app/database';
import { ActionStatus, Clock, endsForUnknownType, overdue } from '@app/domain';
import { InMemoryLifecycleStore } from './in-memory-lifecycle-store';

/** What `lead` is handed for its transaction: the in-memory schedule runs on none. */
export const NO_TRANSACTION = {} as EntityManager;

/** A worker's declaration as the schedule reads it: what it knows and serves, and until when it is live. */
interface DeclaredWorker {
  knows: readonly string[];
  serves: readonly string[];
  liveUntil: Date;
}

type Keyset = { nextAttemptAt: Date; id: string };

/** (nextAttemptAt, id) order, the keyset the promoter's reads walk. */
function byDueTime(a: Keyset, b: Keyset): number {
  return a.nextAttemptAt.getTime() - b.nextAttemptAt.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

function isAfter(row: Keyset, after?: Keyset): boolean {
  return !after || byDueTime(row, after) > 0;
}

/** The columns the Postgres reads return for a job. */
function queueable(row: ActionEntity): QueueableAction {
  const { id, tenantId, action, status, occurrence, retryCount, revision, nextAttemptAt, pausedFrom } = row;
  return { id, tenantId, action, status, occurrence, retryCount, revision, nextAttemptAt, pausedFrom };
}

/**
 * The promoter's schedule in memory, over the rows of an `InMemoryLifecycleStore` and on its clock.
 * Each read decides what is due with the domain's rules (`overdue`, `endsForUnknownType`), the twins
 * of the SQL predicates that `ScheduleRepository` uses, which the predicates' drift spec holds
 * together; the workers' declarations are kept here, as the `workers` table keeps them.
 */
export class InMemorySchedule implements ScheduleStorePort {
  /** The watermark: PENDING actions due before it were queued. `-infinity` at first, as in Postgres. */
  promotedUntil = new Date(-8.64e15);
  private readonly workers = new Map<string, DeclaredWorker>();

  constructor(
    private readonly store: InMemoryLifecycleStore,
    private readonly clock: Clock,
  ) {}

  /** A worker's heartbeat: it knows and serves these types, and is live for `livenessMs` from now. */
  beat(id: string, types: { knows: readonly string[]; serves: readonly string[] }, livenessMs: number): void {
    this.workers.set(id, { ...types, liveUntil: new Date(this.clock.now().getTime() + livenessMs) });
  }

  /** A graceful stop: the worker is no longer live from now. */
  stop(id: string): void {
    const worker = this.workers.get(id)!;
    worker.liveUntil = new Date(Math.min(worker.liveUntil.getTime(), this.clock.now().getTime()));
  }

  async promotionWindow(_manager: EntityManager, horizonMs: number): Promise<PromotionWindow> {
    const now = this.clock.now();
    return { from: this.promotedUntil, until: new Date(now.getTime() + horizonMs), now };
  }

  async pendingBetween(_manager: EntityManager, window: { from: Date; until: Date }, limit: number, after?: Keyset): Promise<QueueableAction[]> {
    const rows = this.store.select((row) => overdue(row, window.until) && row.nextAttemptAt >= window.from && isAfter(row, after), byDueTime, limit);
    return rows.map(queueable);
  }

  async advanceWatermark(_manager: EntityManager, until: Date): Promise<void> {
    this.promotedUntil = until;
  }

  async resetWatermark(): Promise<void> {
    this.promotedUntil = new Date(-8.64e15);
  }

  async dueOfUnknownType(_manager: EntityManager, graceMs: number, limit: number): Promise<ActionEntity[]> {
    const now = this.clock.now();
    return this.store.select((row) => endsForUnknownType(row, now, graceMs, this.typeKnownUntil(row.action)), byDueTime, limit);
  }

  async overdue(_manager: EntityManager, types: readonly string[], graceMs: number, limit: number, after?: Keyset): Promise<QueueableAction[]> {
    const graceAgo = new Date(this.clock.now().getTime() - graceMs);
    const pending = this.store.select((row) => overdue(row, graceAgo) && types.includes(row.action) && isAfter(row, after), byDueTime, limit);
    // The lapsed claim is no shared predicate: the sweep alone asks it, inline in its SQL too.
    const lapsed = this.store.select(
      (row) => row.status === ActionStatus.InProgress && row.claimedUntil !== null && row.claimedUntil < graceAgo && types.includes(row.action),
      (a, b) => a.claimedUntil!.getTime() - b.claimedUntil!.getTime(),
      limit,
    );
    return [...pending, ...lapsed].map(queueable);
  }

  async servedTypes(): Promise<string[]> {
    const now = this.clock.now();
    const live = [...this.workers.values()].filter((worker) => worker.liveUntil > now);
    return [...new Set(live.flatMap((worker) => worker.serves))].sort();
  }

  /** When the last worker that knew `type` stopped being live (still to come while one lives), or null when none ever did. */
  private typeKnownUntil(type: string): Date | null {
    const until = [...this.workers.values()].filter((worker) => worker.knows.includes(type)).map((worker) => worker.liveUntil.getTime());
    return until.length ? new Date(Math.max(...until)) : null;
  }
}
