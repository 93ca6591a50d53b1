import { ErrorCode, PunctualDomainError } from '../error-code';

/** The event does not apply to the action in its current state (running, finished, locked). → 409 */
export class TransitionRefusedError extends PunctualDomainError {
  readonly code = ErrorCode.TransitionRefused;

  constructor(message: string) {
    super(message);
    this.name = 'TransitionRefusedError';
  }
}

/** The change would leave the action in a state the lifecycle cannot run (e.g. repeating without a frequency). → 400 */
export class InvalidChangeError extends PunctualDomainError {
  readonly code = ErrorCode.InvalidChange;

  constructor(message: string) {
    super(message);
    this.name = 'InvalidChangeError';
  }
}
