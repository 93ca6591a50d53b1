import { DATABASE_UNAVAILABLE_MESSAGE } from '@app/database';
import { ErrorCode, PunctualDomainError } from '@app/domain';

/** The request's signature headers are missing, malformed, expired, replayed or do not verify. → 401 */
export class SignatureError extends PunctualDomainError {
  readonly code = ErrorCode.SignatureRefused;

  constructor(message: string) {
    super(message);
    this.name = 'SignatureError';
  }
}

/**
 * Postgres, which records accepted nonces, is unreachable: the request cannot be checked for replay
 * now, so it is refused with nothing done. → 503, with the same message as any other write then.
 */
export class NonceStoreUnavailableError extends PunctualDomainError {
  readonly code = ErrorCode.StoreUnavailable;

  constructor() {
    super(DATABASE_UNAVAILABLE_MESSAGE);
    this.name = 'NonceStoreUnavailableError';
  }
}
