import { LoggerService } from '@nestjs/common';

/** Renewals per lease: a claim survives two missed renewals before it can lapse. */
const RENEWALS_PER_LEASE = 3;
/** Without a successful renewal for this share of a lease, the attempt stops before another worker may take it over. */
const LAPSE_SHARE = 0.8;

/** A claim a running attempt holds: an action's occurrence, or a webhook delivery's attempt. */
export interface RenewableClaim {
  /** The attempt, as the log names it. */
  readonly name: string;
  /** Extends the claim by `leaseMs` on Postgres's clock; false when it is no longer this attempt's (taken over). */
  renew(leaseMs: number): Promise<boolean>;
}

/**
 * Keeps a running attempt's claim alive on Postgres's clock, and says when the attempt must stop:
 * `signal` aborts as soon as a renewal finds the claim taken over, or when no renewal has
 * succeeded for most of a lease (Postgres unreachable, or a renewal waiting on a lock), since
 * another worker may then take the occurrence over. No attempt outlives its claim.
 */
export class ClaimLease {
  private readonly controller = new AbortController();
  private readonly renewals: NodeJS.Timeout;
  private lapse: NodeJS.Timeout;
  private renewing = false;
  private released = false;
  private lastError: string | null = null;

  constructor(
    readonly claim: RenewableClaim,
    private readonly leaseMs: number,
    private readonly logger: LoggerService,
    private readonly onRelease: () => void,
  ) {
    this.renewals = setInterval(() => void this.renew(), Math.max(1, Math.floor(leaseMs / RENEWALS_PER_LEASE)));
    this.lapse = this.lapseIn(leaseMs * LAPSE_SHARE);
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** Tells the attempt to stop for `reason`; the claim is still renewed until `release()`, so the attempt can record its end. */
  stop(reason: Error): void {
    if (!this.controller.signal.aborted) this.controller.abort(reason);
  }

  /** The attempt ended (or is given up): no more renewals. */
  release(): void {
    if (this.released) return;
    this.released = true;
    this.stopRenewing();
    this.onRelease();
  }

  private async renew(): Promise<void> {
    // A renewal that hangs is not piled up on: the lapse timer decides when the claim counts as lost.
    if (this.renewing) return;
    this.renewing = true;
    const sentAt = performance.now();
    try {
      if (!(await this.claim.renew(this.leaseMs))) return this.lose('its claim was taken over by another worker');
      this.lastError = null;
      if (this.released) return;
      clearTimeout(this.lapse);
      this.lapse = this.lapseIn(sentAt + this.leaseMs * LAPSE_SHARE - performance.now());
    } catch (error) {
      this.lastError = (error as Error).message;
    } finally {
      this.renewing = false;
    }
  }

  private lapseIn(ms: number): NodeJS.Timeout {
    return setTimeout(() => {
      const why = this.renewing ? 'a renewal is still waiting for Postgres' : (this.lastError ?? 'no renewal got through');
      this.lose(`its claim could not be renewed for ${Math.round(this.leaseMs * LAPSE_SHARE)} ms (${why})`);
    }, ms);
  }

  private stopRenewing(): void {
    clearInterval(this.renewals);
    clearTimeout(this.lapse);
  }

  private lose(reason: string): void {
    this.stopRenewing();
    if (this.released || this.controller.signal.aborted) return;
    this.logger.warn(`Stopping ${this.claim.name}: ${reason}`);
    this.controller.abort(new Error(`attempt stopped: ${reason}`));
  }
}

/** A failed attempt's error for its history: when its signal stopped it, also why (a fulfillment may say only that it was cancelled). */
export function failureMessage(error: unknown, signal: AbortSignal): string {
  const message = error instanceof Error ? error.message : String(error);
  return signal.aborted && signal.reason instanceof Error && error !== signal.reason ? `${signal.reason.message}: ${message}` : message;
}
