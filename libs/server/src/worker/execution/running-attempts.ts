import { Injectable, LoggerService } from '@nestjs/common';
import { PunctualConfig } from '@app/config';
import { ClaimLease, RenewableClaim } from './claim-lease';

/**
 * The attempts this worker is running, actions' and webhook deliveries' alike, each under the lease
 * on its claim: what a stopping worker tells to stop.
 */
@Injectable()
export class RunningAttempts {
  private readonly leases = new Set<ClaimLease>();

  constructor(private readonly config: PunctualConfig) {}

  /** Renews `claim` from now until the lease is released. */
  hold(claim: RenewableClaim, logger: LoggerService): ClaimLease {
    const lease = new ClaimLease(claim, this.config.scheduling.claimLeaseMs, logger, () => this.leases.delete(lease));
    this.leases.add(lease);
    return lease;
  }

  /** How many attempts this worker runs now. */
  get count(): number {
    return this.leases.size;
  }

  /** Aborts every running attempt's signal with `reason`, and names the attempts told to stop. */
  stopAll(reason: Error): string[] {
    for (const lease of this.leases) lease.stop(reason);
    return this.names();
  }

  /** Names the attempts still running and stops renewing their claims, so that they lapse and another worker takes them over. */
  abandonAll(): string[] {
    const names = this.names();
    for (const lease of [...this.leases]) lease.release();
    return names;
  }

  private names(): string[] {
    return [...this.leases].map(({ claim }) => claim.name);
  }
}
