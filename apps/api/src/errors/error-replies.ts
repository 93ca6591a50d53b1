import { HttpException, HttpStatus } from '@nestjs/common';
import { IdempotencyKeyReusedError } from '@app/database';
import { InvalidActionDataError, UnknownActionTypeError } from '@app/action-types';
import { InvalidChangeError, TransitionRefusedError } from '@app/domain';
import { TooManySubscriptionsError, WebhookNotFoundError, WebhooksNotConfiguredError } from './webhook.errors';
import { ActionNotFoundError, InvalidRequestError } from './action.errors';

/** The error body every door answers with: Nest's usual JSON shape. */
export interface ErrorReply {
  statusCode: number;
  error: string;
  message: string | string[];
}

const STATUS_BY_ERROR: [new (...args: never[]) => Error, HttpStatus, string][] = [
  [ActionNotFoundError, HttpStatus.NOT_FOUND, 'Not Found'],
  [WebhookNotFoundError, HttpStatus.NOT_FOUND, 'Not Found'],
  [WebhooksNotConfiguredError, HttpStatus.SERVICE_UNAVAILABLE, 'Service Unavailable'],
  [TooManySubscriptionsError, HttpStatus.CONFLICT, 'Conflict'],
  [TransitionRefusedError, HttpStatus.CONFLICT, 'Conflict'],
  [InvalidChangeError, HttpStatus.BAD_REQUEST, 'Bad Request'],
  [InvalidRequestError, HttpStatus.BAD_REQUEST, 'Bad Request'],
  [InvalidActionDataError, HttpStatus.BAD_REQUEST, 'Bad Request'],
  [UnknownActionTypeError, HttpStatus.BAD_REQUEST, 'Bad Request'],
  [IdempotencyKeyReusedError, HttpStatus.UNPROCESSABLE_ENTITY, 'Unprocessable Entity'],
];

/** The domain error classes that `domainErrorReply` maps, for `@Catch`. */
export const DOMAIN_ERRORS = STATUS_BY_ERROR.map(([type]) => type);

/** The answer to a domain error, by its class; null for any other error. HTTP and RPC both answer with it. */
export function domainErrorReply(error: unknown): ErrorReply | null {
  const match = STATUS_BY_ERROR.find(([type]) => error instanceof type);
  if (!match) return null;
  const [, statusCode, label] = match;
  const message = error instanceof InvalidActionDataError ? error.problems : (error as Error).message;
  return { statusCode, error: label, message };
}

/** The body Nest answers an `HttpException` with (the guard's 401, the validation pipe's 400, …), always in the error shape. */
export function httpExceptionReply(exception: HttpException): ErrorReply {
  const statusCode = exception.getStatus();
  const response = exception.getResponse();
  if (typeof response === 'object' && response !== null) {
    const { error, message } = response as Partial<ErrorReply>;
    return { statusCode, error: error ?? exception.name, message: message ?? exception.message };
  }
  return { statusCode, error: exception.name, message: String(response) };
}
