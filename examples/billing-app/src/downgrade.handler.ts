import { Controller, Inject, Logger } from '@nestjs/common';
import { MessagePattern, Payload, RpcException } from '@nestjs/microservices';
import { MessageEnvelope, MessageVerificationError, verifyMessage } from '@punctual/client';
import { AccountsStore } from './accounts.store';
import { BILLING_CONFIG, BillingConfig } from './billing-config';

export const DOWNGRADE_PATTERN = 'billing.trial.downgrade';

/** Handles the message Punctual sends when a trial ends. */
@Controller()
export class DowngradeHandler {
  private readonly logger = new Logger(DowngradeHandler.name);

  constructor(
    private readonly accounts: AccountsStore,
    @Inject(BILLING_CONFIG) private readonly config: BillingConfig,
  ) {}

  /** Acts only on a message Punctual signed for this app's tenant; anything else gets an error reply and changes nothing. */
  @MessagePattern(DOWNGRADE_PATTERN)
  downgrade(@Payload() data: unknown): { accountId: string; result: string } {
    const message = this.verified(data);
    const { accountId } = message.payload;
    const result = this.accounts.downgrade(accountId, message.idempotencyKey, message.scheduledFor);
    this.logger.log(`Trial of ${accountId} ended (${message.idempotencyKey}, due ${message.scheduledFor}): ${result}`);
    return { accountId, result };
  }

  private verified(data: unknown): MessageEnvelope<{ accountId: string }> {
    try {
      return verifyMessage<{ accountId: string }>(data, { tenant: this.config.tenant, secrets: this.config.messageSecrets });
    } catch (error) {
      if (!(error instanceof MessageVerificationError)) throw error;
      this.logger.warn(`Refused a ${DOWNGRADE_PATTERN} message: ${error.message}`);
      throw new RpcException(`Refused: ${error.message}`);
    }
  }
}
