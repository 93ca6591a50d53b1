import { Clock } from '@app/domain';

/** A slot group as the worker names it (`SlotGroup` of the worker's execution, which this lib does not import). */
interface Group {
  readonly kind: string;
  readonly id: string;
  readonly limit: number;
}

/** A sorted set as Redis keeps one: members by score, and the whole set gone once its expiry passed. */
class ScoredSet {
  readonly scores = new Map<string, number>();
  private expiresAt: number | null = null;

  /** Drops the set when its expiry passed (Redis expires a key once its time is past). */
  expireBy(now: number): void {
    if (this.expiresAt !== null && now > this.expiresAt) this.clear();
  }

  /** Sets the set's expiry, as PEXPIRE does: nothing for a set that does not exist. */
  expireAt(at: number): void {
    if (this.scores.size > 0) this.expiresAt = at;
  }

  /** Whether the member was there, as ZREM answers. */
  delete(member: string): boolean {
    const had = this.scores.delete(member);
    if (this.scores.size === 0) this.clear();
    return had;
  }

  /** Members by score, ties by member, as ZRANGE orders them. */
  ordered(): string[] {
    return [...this.scores].sort(([a, sa], [b, sb]) => sa - sb || (a < b ? -1 : a > b ? 1 : 0)).map(([member]) => member);
  }

  private clear(): void {
    this.scores.clear();
    this.expiresAt = null;
  }
}

/**
 * The slot store in memory, on a manual clock: what the slot scripts in Redis do (lua/ beside the
 * worker's `RedisSlotStore`), step by step, held to the same case table (test/support/slot-store-cases.ts).
 * `unavailable` makes every call fail as an unreachable Redis does.
 */
export class InMemorySlotStore {
  private readonly groups = new Map<string, { running: ScoredSet; parked: ScoredSet }>();
  unavailable = false;

  constructor(private readonly clock: Clock) {}

  async take(group: Group, holder: string, parked: string, leaseMs: number): Promise<boolean> {
    const { running, parked: parkedSet, now } = this.reach(group);
    const reserved = running.delete(parked);
    const [first] = parkedSet.ordered();
    const inLine = first === undefined || first === parked;
    if (!reserved && !running.scores.has(holder) && !(inLine && running.scores.size < group.limit)) return false;
    running.scores.set(holder, now + leaseMs);
    running.expireAt(now + leaseMs);
    parkedSet.delete(parked);
    return true;
  }

  async renew(group: Group, holder: string, leaseMs: number): Promise<void> {
    const { running, now } = this.reach(group);
    if (running.scores.has(holder)) running.scores.set(holder, now + leaseMs);
    running.expireAt(now + leaseMs);
  }

  async settle(group: Group, change: { free?: string; park?: string }, parkedTtlMs: number, leaseMs: number): Promise<string | null> {
    const { running, parked, now } = this.reach(group);
    if (change.free) running.delete(change.free);
    if (change.park) {
      if (!parked.scores.has(change.park)) parked.scores.set(change.park, now);
      parked.expireAt(now + parkedTtlMs);
    }
    if (running.scores.size >= group.limit) return null;
    const [next] = parked.ordered();
    if (next === undefined) return null;
    parked.delete(next);
    running.scores.set(next, now + leaseMs);
    running.expireAt(now + leaseMs);
    return next;
  }

  /** The group's parked members, longest-parked first. */
  parked(group: Group): string[] {
    return this.reach(group).parked.ordered();
  }

  /** The group's sets as the scripts find them: expired sets gone, lapsed slots dropped. */
  private reach(group: Group): { running: ScoredSet; parked: ScoredSet; now: number } {
    if (this.unavailable) throw new Error('Connection is closed.');
    const key = `${group.kind}:${group.id}`;
    const sets = this.groups.get(key) ?? { running: new ScoredSet(), parked: new ScoredSet() };
    this.groups.set(key, sets);
    const now = this.clock.now().getTime();
    sets.running.expireBy(now);
    sets.parked.expireBy(now);
    for (const [holder, leaseEnd] of sets.running.scores) if (leaseEnd <= now) sets.running.delete(holder);
    return { ...sets, now };
  }
}
