import { Injectable } from '@nestjs/common';
import { Clock } from '@app/domain';
import { standardWebhookHeaders } from '@app/outbound';
import { SigningKeys } from './signing-keys';
import { SignatureHeaders } from '@punctual/sdk';

/** Who an attempt signs for, and the id its signed messages carry. */
export interface AttemptSignature {
  readonly tenantId: string;
  readonly signingKeyId: string | null;
  readonly idempotencyKey: string;
}

/**
 * `FulfillmentContext.sign`: a body signed per Standard Webhooks, as HTTP_REQUEST signs its calls,
 * with the secret of the key that last set the action's data or the tenant's oldest remaining key
 * (`SigningKeys`), so that a type of a project's own signs like the built-in one.
 */
@Injectable()
export class AttemptSigner {
  constructor(
    private readonly signingKeys: SigningKeys,
    private readonly clock: Clock,
  ) {}

  async sign(attempt: AttemptSignature, body: string): Promise<SignatureHeaders> {
    const { secret } = await this.signingKeys.keyFor(attempt);
    return standardWebhookHeaders({ id: attempt.idempotencyKey, timestamp: this.clock.now(), body }, Buffer.from(secret, 'utf8'));
  }
}
