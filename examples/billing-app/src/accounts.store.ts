import { Injectable } from '@nestjs/common';

export interface Downgrade {
  accountId: string;
  idempotencyKey: string;
  scheduledFor: string;
  at: Date;
}

/** The example's accounts, in memory: a real app keeps them (and the keys it handled) in its database. */
@Injectable()
export class AccountsStore {
  private readonly plans = new Map<string, string>();
  readonly downgrades: Downgrade[] = [];

  startTrial(accountId: string): void {
    this.plans.set(accountId, 'pro-trial');
  }

  planOf(accountId: string): string | undefined {
    return this.plans.get(accountId);
  }

  /** Downgrades once per idempotency key: a message repeated after a lost reply changes nothing. */
  downgrade(accountId: string, idempotencyKey: string, scheduledFor: string): 'downgraded' | 'already-done' {
    if (this.downgrades.some((d) => d.idempotencyKey === idempotencyKey)) return 'already-done';
    this.plans.set(accountId, 'free');
    this.downgrades.push({ accountId, idempotencyKey, scheduledFor, at: new Date() });
    return 'downgraded';
  }
}
