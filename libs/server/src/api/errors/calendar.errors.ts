import { ErrorCode, PunctualDomainError } from '@app/domain';

/** The name names no calendar. → 404 */
export class CalendarNotFoundError extends PunctualDomainError {
  readonly code = ErrorCode.CalendarNotFound;

  constructor(name: string) {
    super(`Calendar ${name} not found`);
  }
}

/** A calendar goes only once no action names it. → 409 */
export class CalendarInUseError extends PunctualDomainError {
  readonly code = ErrorCode.CalendarInUse;

  constructor(name: string, namedBy: number) {
    super(`Calendar ${name} is named by ${namedBy} action(s); set their calendar to null (PATCH /actions/:id) or delete them, then delete the calendar`);
  }
}
