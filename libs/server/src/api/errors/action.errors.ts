import { ErrorCode, PunctualDomainError } from '@app/domain';

/** The id names no action. → 404 */
export class ActionNotFoundError extends PunctualDomainError {
  readonly code = ErrorCode.ActionNotFound;

  constructor(readonly id: string) {
    super(`Action ${id} not found`);
  }
}

/** The request is well-formed JSON but asks for something invalid. → 400 */
export class InvalidRequestError extends PunctualDomainError {
  readonly code = ErrorCode.InvalidRequest;
}
