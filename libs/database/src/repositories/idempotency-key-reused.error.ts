import { ErrorCode, PunctualDomainError } from '@app/domain';

/** An `Idempotency-Key` came back within its 24 h with a body other than the one it was first used with. */
export class IdempotencyKeyReusedError extends PunctualDomainError {
  readonly code = ErrorCode.IdempotencyKeyReused;

  constructor(readonly key: string) {
    super(
      `Idempotency-Key "${key}" was already used with a different body in the last 24 hours; nothing was created. ` +
        'Repeat the first body to get its action, or use a new key for a new action.',
    );
    this.name = 'IdempotencyKeyReusedError';
  }
}
