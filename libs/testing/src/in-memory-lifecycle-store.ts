import { randomUUID } from 'node:crypto';
import {
  ActionEntity,
  ClaimLeasesPort,
  createdRow,
  ClaimResult,
  LifecycleStorePort,
  NewAction,
  TransitionGuard,
  WritePlan,
  writePlanOf,
} from '@app/database';
import {
  ActionStatus,
  AttemptOutcome,
  Clock,
  HistoryDraft,
  HistoryEvent,
  Transition,
  UnlockedGuard,
  attemptOutcomeOf,
  claimable,
  heldByPause,
  localDay,
  skipEntriesOf,
  transition,
} from '@app/domain';

/** An event the store put in its outbox, as the Postgres store's `webhook_events` row holds it. */
export interface StoredEvent {
  type: string;
  occurrence: number;
  attempt: number;
  note: string | null;
  reason: string | null;
  skipped: string[] | null;
  count: number | null;
}

/** What a history entry records of the event that wrote it, as the Postgres store's `event` and `outcome` columns hold it. */
export interface EntryDecision {
  event: HistoryEvent;
  outcome: AttemptOutcome | null;
}

type RecordedEntry = HistoryDraft & EntryDecision;

/** A transition's entries as recorded: skipped occurrences first, with its event and no outcome, then its own. */
function recordedEntries(t: Transition<ActionEntity>): RecordedEntry[] {
  const decided = (outcome: AttemptOutcome | null) => ({ event: t.event, outcome });
  return [
    ...skipEntriesOf(t).map((entry) => ({ ...entry, ...decided(null) })),
    ...t.history.map((entry) => ({ ...entry, ...decided(attemptOutcomeOf(t.event)) })),
  ];
}

/** An error `isDatabaseUnavailable` recognises, as node-postgres gives it when the server is gone. */
export function databaseUnavailableError(): Error {
  return Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
}

/**
 * The store port in memory, for specs that run without Postgres: it applies the same pure lifecycle
 * (`transition`, the store's `writePlanOf`) under the same guards as `LifecycleStore`, on the
 * injected clock, and the store's drift spec holds it to every case of the lifecycle's table. It
 * also answers a running attempt's lease (`ClaimLeasesPort`). `unavailable` makes every call fail
 * as an unreachable Postgres does.
 */
export class InMemoryLifecycleStore implements LifecycleStorePort, ClaimLeasesPort {
  private readonly rows = new Map<string, ActionEntity>();
  private readonly history = new Map<string, RecordedEntry[]>();
  private readonly events = new Map<string, StoredEvent[]>();
  private readonly calendars = new Map<string, Set<string>>();
  /** While true, every call fails as when Postgres cannot be reached. */
  unavailable = false;
  /** How many times each method was called, so a spec can tell a loop from one call. */
  readonly calls = { create: 0, claim: 0, persist: 0, renew: 0, claimed: 0 };

  constructor(private readonly clock: Clock = new Clock()) {}

  /** The action as stored now (a copy), or null. */
  row(id: string): ActionEntity | null {
    const row = this.rows.get(id);
    return row ? copy(row) : null;
  }

  /**
   * Copies of the first `limit` stored rows that `where` holds of, in `order`, as a query reads
   * them: the rows are filtered and ordered before any is copied, so a large table stays cheap.
   */
  select(where: (row: ActionEntity) => boolean, order: (a: ActionEntity, b: ActionEntity) => number, limit: number): ActionEntity[] {
    return [...this.rows.values()].filter(where).sort(order).slice(0, limit).map(copy);
  }

  /** The action's history entries, the creation's first. */
  historyOf(id: string): HistoryDraft[] {
    return (this.history.get(id) ?? []).map(({ from, to, occurrence, attempt, note }) => ({ from, to, occurrence, attempt, note }));
  }

  /** What each of the action's history entries records of the event that wrote it, in the same order. */
  decisionsOf(id: string): EntryDecision[] {
    return (this.history.get(id) ?? []).map(({ event, outcome }) => ({ event, outcome }));
  }

  /** The events the action's changes put in the outbox. */
  eventsOf(id: string): StoredEvent[] {
    return [...(this.events.get(id) ?? [])];
  }

  /** The tenant's calendar `name` holds `days` (YYYY-MM-DD). */
  putCalendar(tenantId: string, name: string, days: string[]): void {
    this.calendars.set(`${tenantId}\n${name}`, new Set(days));
  }

  /** Changes a stored row as an operator or another process would, outside the lifecycle. */
  update(id: string, changes: Partial<ActionEntity>): void {
    Object.assign(this.rows.get(id)!, changes);
  }

  async create(action: NewAction): Promise<ActionEntity> {
    return (await this.createMany([action]))[0];
  }

  async createMany(actions: NewAction[]): Promise<ActionEntity[]> {
    this.calls.create += 1;
    this.reachable();
    const at = this.clock.now();
    if (actions.some((action) => this.rows.has(action.id))) throw new Error('duplicate key value violates unique constraint "actions_pkey"');
    return actions.map((sent) => {
      const row = createdRow(new ActionEntity(), sent, at, at);
      this.rows.set(sent.id, row);
      this.history.set(sent.id, [{ ...sent.history, event: 'created', outcome: null }]);
      this.events.set(sent.id, []);
      return copy(row);
    });
  }

  async claim(id: string, revision: number, type: string, leaseMs: number): Promise<ClaimResult> {
    this.calls.claim += 1;
    this.reachable();
    const now = this.clock.now();
    const row = this.rows.get(id);
    if (!row || row.revision !== revision || row.action !== type) return { kind: 'none' };
    const lapsed = row.status === ActionStatus.InProgress && row.claimedUntil !== null && row.claimedUntil < now;
    if (claimable(row, now) && this.onCalendarDate(row)) return { kind: 'calendar-date', action: copy(row) };
    if (!claimable(row, now) && !lapsed) {
      if (row.status === ActionStatus.Pending && !heldByPause(row)) return { kind: 'not-due', dueInMs: row.nextAttemptAt.getTime() - now.getTime() };
      if (row.status === ActionStatus.InProgress) return { kind: 'not-due', dueInMs: row.claimedUntil!.getTime() - now.getTime() };
      return { kind: 'none' };
    }
    const claimed = transition(row, { type: 'claimed' });
    const dueAt = new Date(Math.max(row.nextAttemptAt.getTime(), Math.min(row.runnableSince.getTime(), now.getTime())));
    Object.assign(row, claimed.after, { claimToken: randomUUID(), claimedUntil: new Date(now.getTime() + leaseMs), updatedAt: now });
    this.history.get(id)!.push(...recordedEntries(claimed));
    return { kind: 'claimed', action: copy(row), takenOver: claimed.history.length === 0, dueAt };
  }

  /** Refuses what no store may write at once, as the Postgres store does, before any write. */
  persist(t: Transition<ActionEntity>, guard: TransitionGuard): Promise<ActionEntity | null> {
    this.calls.persist += 1;
    const plan = writePlanOf(t, guard);
    return this.persistPlanned(t, plan);
  }

  private async persistPlanned(t: Transition<ActionEntity>, plan: WritePlan): Promise<ActionEntity | null> {
    if (plan.kind === 'nothing') return t.before;
    this.reachable();
    const row = this.rows.get(t.before.id);
    switch (plan.kind) {
      case 'delete':
        if (!row || !atRevision(row, t.before, plan.guard)) return null;
        this.rows.delete(row.id);
        this.history.delete(row.id);
        return t.before;
      case 'change':
        if (!row || !atRevision(row, t.before, plan.guard) || row.pausedFrom !== t.before.pausedFrom) return null;
        return this.write(row, t, plan.changed);
      case 'outcome':
        if (!row || !underClaim(row, t.before)) return null;
        return this.write(row, t, plan.changed);
    }
  }

  async renew(action: ActionEntity, leaseMs: number): Promise<boolean> {
    this.calls.renew += 1;
    this.reachable();
    const row = this.rows.get(action.id);
    if (!row || row.claimToken !== action.claimToken || row.status !== ActionStatus.InProgress) return false;
    row.claimedUntil = new Date(this.clock.now().getTime() + leaseMs);
    return true;
  }

  async claimed(id: string, token: string): Promise<ActionEntity | null> {
    this.calls.claimed += 1;
    this.reachable();
    const row = this.rows.get(id);
    return row && row.claimToken === token && row.status === ActionStatus.InProgress ? copy(row) : null;
  }

  /** Writes the changed fields, the claim cleared when the action leaves IN_PROGRESS, with the change's history and events. */
  private write(row: ActionEntity, t: Transition<ActionEntity>, changed: readonly (keyof ActionEntity)[]): ActionEntity {
    const now = this.clock.now();
    for (const field of changed) Object.assign(row, { [field]: t.after[field] });
    if (changed.includes('status')) row.finishedAt = t.finished ? now : null;
    if (row.status !== ActionStatus.InProgress) Object.assign(row, { claimToken: null, claimedUntil: null });
    row.updatedAt = now;
    this.history.get(row.id)!.push(...recordedEntries(t));
    this.events.get(row.id)!.push(...eventsOf(t));
    return copy(row);
  }

  private onCalendarDate(row: ActionEntity): boolean {
    if (row.calendar === null) return false;
    return this.calendars.get(`${row.tenantId}\n${row.calendar}`)?.has(localDay(row.executionTime, row.timezone ?? 'UTC')) ?? false;
  }

  private reachable(): void {
    if (this.unavailable) throw databaseUnavailableError();
  }
}

function atRevision(row: ActionEntity, read: ActionEntity, guard: UnlockedGuard): boolean {
  return row.revision === read.revision && guard.statuses.includes(row.status) && (guard.dueAfter === undefined || row.executionTime > guard.dueAfter);
}

function underClaim(row: ActionEntity, read: ActionEntity): boolean {
  return (
    row.claimToken === read.claimToken &&
    row.status === ActionStatus.InProgress &&
    row.cancelRequestedAt?.getTime() === read.cancelRequestedAt?.getTime() &&
    row.skipPending === read.skipPending
  );
}

/** The outbox rows of a change: one per reason it skipped occurrences for, then its notice. */
function eventsOf(t: Transition<ActionEntity>): StoredEvent[] {
  const skipped = t.skipNotices.map((notice) => ({
    type: 'action.occurrence_skipped',
    occurrence: t.after.occurrence,
    attempt: 0,
    note: notice.note,
    reason: notice.reason,
    skipped: notice.times.map((time) => time.toISOString()),
    count: notice.count,
  }));
  const notice = t.notice ? [{ ...t.notice, reason: null, skipped: null, count: null }] : [];
  return [...skipped, ...notice];
}

/** A copy, so that a caller's object never aliases the stored row. */
function copy(row: ActionEntity): ActionEntity {
  return Object.assign(new ActionEntity(), structuredClone({ ...row }));
}
