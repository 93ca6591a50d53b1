import { Inject, Injectable, OnApplicationShutdown } from '@nestjs/common';
import { ActionResource, PunctualClient } from '@punctual/client';
import { AccountsStore } from './accounts.store';
import { BILLING_CONFIG, BillingConfig } from './billing-config';
import { DOWNGRADE_PATTERN } from './downgrade.handler';

/** Starts trials and asks Punctual, over RPC, to send the downgrade message when one ends. */
@Injectable()
export class TrialsService implements OnApplicationShutdown {
  private readonly punctual: PunctualClient;

  constructor(
    @Inject(BILLING_CONFIG) private readonly config: BillingConfig,
    private readonly accounts: AccountsStore,
  ) {
    this.punctual = PunctualClient.overRpc({ transport: config.punctualUrl, keyId: config.keyId, secret: config.secret });
  }

  /** Safe to call again: the idempotency key makes a retried call return the action scheduled the first time. */
  async startTrial(accountId: string, endsAt: Date): Promise<ActionResource> {
    this.accounts.startTrial(accountId);
    return this.punctual.create(
      {
        action: 'MESSAGE',
        executionTime: endsAt,
        data: { pattern: DOWNGRADE_PATTERN, transport: this.config.transportName, payload: { accountId } },
        metadata: { app: 'billing' },
      },
      { idempotencyKey: `trial-end:${accountId}` },
    );
  }

  onApplicationShutdown(): Promise<void> {
    return this.punctual.close();
  }
}
