import { HttpException, HttpStatus } from '@nestjs/common';
import { InvalidActionDataError } from '@app/action-types';
import { ErrorCode, PunctualDomainError } from '@app/domain';

/** The error body every door answers with: Nest's usual JSON shape. */
export interface ErrorReply {
  statusCode: number;
  error: string;
  message: string | string[];
}

/** What an error code is answered with, over HTTP and RPC and on the console's pages. */
export interface ErrorAnswer {
  status: HttpStatus;
  error: string;
}

/** The one place an error becomes a status: by its code, so the compiler asks for an answer to every new code. */
export const ERROR_ANSWERS: Readonly<Record<ErrorCode, ErrorAnswer>> = {
  [ErrorCode.ActionNotFound]: { status: HttpStatus.NOT_FOUND, error: 'Not Found' },
  [ErrorCode.WebhookNotFound]: { status: HttpStatus.NOT_FOUND, error: 'Not Found' },
  [ErrorCode.DeliveryNotFound]: { status: HttpStatus.NOT_FOUND, error: 'Not Found' },
  [ErrorCode.DeliveryPending]: { status: HttpStatus.CONFLICT, error: 'Conflict' },
  [ErrorCode.CalendarNotFound]: { status: HttpStatus.NOT_FOUND, error: 'Not Found' },
  [ErrorCode.CalendarInUse]: { status: HttpStatus.CONFLICT, error: 'Conflict' },
  [ErrorCode.TenantNotFound]: { status: HttpStatus.NOT_FOUND, error: 'Not Found' },
  [ErrorCode.TenantExists]: { status: HttpStatus.CONFLICT, error: 'Conflict' },
  [ErrorCode.ApiKeyNotFound]: { status: HttpStatus.NOT_FOUND, error: 'Not Found' },
  [ErrorCode.ApiKeyConfigured]: { status: HttpStatus.CONFLICT, error: 'Conflict' },
  [ErrorCode.SecretKeyNotConfigured]: { status: HttpStatus.SERVICE_UNAVAILABLE, error: 'Service Unavailable' },
  [ErrorCode.QuotaExceeded]: { status: HttpStatus.TOO_MANY_REQUESTS, error: 'Too Many Requests' },
  [ErrorCode.TransitionRefused]: { status: HttpStatus.CONFLICT, error: 'Conflict' },
  [ErrorCode.TooManySubscriptions]: { status: HttpStatus.CONFLICT, error: 'Conflict' },
  [ErrorCode.InvalidChange]: { status: HttpStatus.BAD_REQUEST, error: 'Bad Request' },
  [ErrorCode.InvalidRequest]: { status: HttpStatus.BAD_REQUEST, error: 'Bad Request' },
  [ErrorCode.InvalidActionData]: { status: HttpStatus.BAD_REQUEST, error: 'Bad Request' },
  [ErrorCode.UnknownActionType]: { status: HttpStatus.BAD_REQUEST, error: 'Bad Request' },
  [ErrorCode.InvalidConsoleInput]: { status: HttpStatus.BAD_REQUEST, error: 'Bad Request' },
  [ErrorCode.IdempotencyKeyReused]: { status: HttpStatus.UNPROCESSABLE_ENTITY, error: 'Unprocessable Entity' },
  [ErrorCode.SignatureRefused]: { status: HttpStatus.UNAUTHORIZED, error: 'Unauthorized' },
  [ErrorCode.CsrfRefused]: { status: HttpStatus.FORBIDDEN, error: 'Forbidden' },
  [ErrorCode.WebhooksNotConfigured]: { status: HttpStatus.SERVICE_UNAVAILABLE, error: 'Service Unavailable' },
  [ErrorCode.StoreUnavailable]: { status: HttpStatus.SERVICE_UNAVAILABLE, error: 'Service Unavailable' },
  [ErrorCode.StoreTimedOut]: { status: HttpStatus.SERVICE_UNAVAILABLE, error: 'Service Unavailable' },
};

/** The body that answers `code` with `message`. */
export function errorReply(code: ErrorCode, message: string | string[]): ErrorReply {
  const { status, error } = ERROR_ANSWERS[code];
  return { statusCode: status, error, message };
}

/** The answer to an error of ours, HTTP and RPC alike; invalid data lists its problems, one per field. */
export function domainErrorReply(error: PunctualDomainError): ErrorReply {
  return errorReply(error.code, error instanceof InvalidActionDataError ? error.problems : error.message);
}

/** The body Nest answers an `HttpException` with (the validation pipe's 400, a body too large, …), always in the error shape. */
export function httpExceptionReply(exception: HttpException): ErrorReply {
  const statusCode = exception.getStatus();
  const response = exception.getResponse();
  if (typeof response === 'object' && response !== null) {
    const { error, message } = response as Partial<ErrorReply>;
    return { statusCode, error: error ?? exception.name, message: message ?? exception.message };
  }
  return { statusCode, error: exception.name, message: String(response) };
}
