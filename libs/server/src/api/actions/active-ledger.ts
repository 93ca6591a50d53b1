import { TenantLimits } from '@app/database';

/** What a read of the tenant gives: its own limits (null: the defaults) and its active actions as stored. */
export interface TenantReading {
  limits: TenantLimits | null;
  active: number;
}

/**
 * One tenant's active actions as one API process knows them: the count of its last read, what
 * this process changed since that read began, and the places it holds for writes still on their
 * way. Every change is synchronous, so the check and the hold of a place happen with no await
 * between them, and concurrent requests cannot all pass on the same count.
 *
 * A read runs beside the process's own changes, and its snapshot may or may not hold a change
 * made while it ran. Each doubt is settled the way that admits fewer: an action this process
 * stored during the read is counted again on top of it, a place freed during it is taken as
 * already in it. The next read sets the count right.
 */
export class ActiveLedger {
  limits: TenantLimits | null = null;
  private stored = 0;
  /** Net changes since the read `stored` came from began. */
  private sinceRead = 0;
  /** Actions stored since the read in flight began; null when none is. */
  private storedDuringRead: number | null = null;
  private held = 0;
  private readAt = -Infinity;
  private reading: Promise<void> | null = null;

  constructor(
    private readonly read: () => Promise<TenantReading>,
    private readonly readEveryMs: number,
  ) {}

  /** The tenant's active actions, the places held for creates and retries on their way included. */
  get active(): number {
    return this.stored + this.sinceRead + this.held;
  }

  /** Resolves once the count is at most `readEveryMs` old; concurrent callers share one read. */
  fresh(now: number): Promise<void> {
    if (this.reading) return this.reading;
    if (now - this.readAt < this.readEveryMs) return Promise.resolve();
    this.storedDuringRead = 0;
    this.reading = this.read().then(
      (reading) => {
        this.limits = reading.limits;
        this.stored = reading.active;
        this.sinceRead = this.storedDuringRead ?? 0;
        this.readAt = now;
        this.finishRead();
      },
      (error: unknown) => {
        this.finishRead();
        throw error;
      },
    );
    return this.reading;
  }

  hold(count: number): void {
    this.held += count;
  }

  /** Held places that are now stored actions. */
  keep(count: number): void {
    this.held -= count;
    this.sinceRead += count;
    if (this.storedDuringRead !== null) this.storedDuringRead += count;
  }

  /** Held places given back: nothing was stored for them. */
  release(count: number): void {
    this.held -= count;
  }

  /** Stored actions that stopped being active (deleted, canceled, finished). */
  free(count: number): void {
    this.sinceRead -= count;
  }

  private finishRead(): void {
    this.storedDuringRead = null;
    this.reading = null;
  }
}

/** Places held in a ledger for one write: kept once the write stored them, else given back; the first of the two settles them. */
export class HeldPlaces {
  private settled = false;

  constructor(
    private readonly ledger: ActiveLedger,
    readonly count: number,
  ) {}

  keep(): void {
    this.settle(() => this.ledger.keep(this.count));
  }

  /** Gives the places back unless they were kept: safe to call whatever happened. */
  release(): void {
    this.settle(() => this.ledger.release(this.count));
  }

  private settle(change: () => void): void {
    if (this.settled) return;
    this.settled = true;
    change();
  }
}
