import { LoggerService } from '@nestjs/common';
import { ActionEntity, ExecutionRepository } from '@app/database';

/** Renewals per lease: a claim survives two missed renewals before it can lapse. */
const RENEWALS_PER_LEASE = 3;

/**
 * Keeps a running attempt's claim alive on Postgres's clock, and says when the attempt must stop:
 * `signal` aborts as soon as a renewal finds the claim taken over, or when no renewal has
 * succeeded for most of a lease (Postgres unreachable), since another worker may then take
 * the occurrence over. No attempt outlives its claim.
 */
export class ClaimLease {
  private readonly controller = new AbortController();
  private readonly timer: NodeJS.Timeout;
  private heldSince = performance.now();

  constructor(
    private readonly execution: ExecutionRepository,
    private readonly action: ActionEntity,
    private readonly leaseMs: number,
    private readonly logger: LoggerService,
  ) {
    this.timer = setInterval(() => void this.renew(), Math.max(1, Math.floor(leaseMs / RENEWALS_PER_LEASE)));
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  release(): void {
    clearInterval(this.timer);
  }

  private async renew(): Promise<void> {
    const sentAt = performance.now();
    try {
      if (await this.execution.renew(this.action, this.leaseMs)) this.heldSince = sentAt;
      else this.lose('its claim was taken over by another worker');
    } catch (error) {
      if (performance.now() - this.heldSince > this.leaseMs * 0.8) this.lose(`its claim could not be renewed: ${(error as Error).message}`);
    }
  }

  private lose(reason: string): void {
    if (this.controller.signal.aborted) return;
    this.release();
    this.logger.warn(`Stopping attempt of ${this.action.id}:${this.action.occurrence}: ${reason}`);
    this.controller.abort(new Error(`attempt stopped: ${reason}`));
  }
}
