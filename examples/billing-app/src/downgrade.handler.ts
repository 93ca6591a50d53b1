import { Controller, Logger } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { AccountsStore } from './accounts.store';

export const DOWNGRADE_PATTERN = 'billing.trial.downgrade';

/** What Punctual sends with every MESSAGE action. */
interface PunctualMessage<Payload> {
  idempotencyKey: string;
  actionId: string;
  occurrence: number;
  scheduledFor: string;
  payload: Payload;
}

/** Handles the message Punctual sends when a trial ends. */
@Controller()
export class DowngradeHandler {
  private readonly logger = new Logger(DowngradeHandler.name);

  constructor(private readonly accounts: AccountsStore) {}

  @MessagePattern(DOWNGRADE_PATTERN)
  downgrade(@Payload() message: PunctualMessage<{ accountId: string }>): { accountId: string; result: string } {
    const result = this.accounts.downgrade(message.payload.accountId, message.idempotencyKey, message.scheduledFor);
    this.logger.log(`Trial of ${message.payload.accountId} ended (${message.idempotencyKey}, due ${message.scheduledFor}): ${result}`);
    return { accountId: message.payload.accountId, result };
  }
}
