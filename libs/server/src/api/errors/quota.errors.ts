import { ErrorCode, PunctualDomainError } from '@app/domain';

/** A tenant's create would go over one of its limits; nothing is stored. → 429 with Retry-After */
export class QuotaExceededError extends PunctualDomainError {
  readonly code = ErrorCode.QuotaExceeded;

  constructor(
    message: string,
    /** When asking again may succeed. */
    readonly retryAfterSeconds: number,
  ) {
    super(message);
  }
}
