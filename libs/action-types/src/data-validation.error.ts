import { ErrorCode, PunctualDomainError } from '@app/domain';

/** `data` does not satisfy its action type's schema; each problem names the field. */
export class InvalidActionDataError extends PunctualDomainError {
  readonly code = ErrorCode.InvalidActionData;

  constructor(readonly problems: string[]) {
    super(problems.join('; '));
    this.name = 'InvalidActionDataError';
  }
}

/** The action names no registered type. */
export class UnknownActionTypeError extends PunctualDomainError {
  readonly code = ErrorCode.UnknownActionType;

  constructor(
    readonly type: string,
    readonly knownTypes: readonly string[],
  ) {
    super(`Unknown action type "${type}". Known types: ${knownTypes.join(', ')}`);
    this.name = 'UnknownActionTypeError';
  }
}
