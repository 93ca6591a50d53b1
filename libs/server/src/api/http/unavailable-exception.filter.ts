import { ArgumentsHost, Catch, ExceptionFilter, HttpException, Logger } from '@nestjs/common';
import { AbstractHttpAdapter, BaseExceptionFilter } from '@nestjs/core';
import { Response } from 'express';
import { DATABASE_UNAVAILABLE_MESSAGE, isDatabaseUnavailable, isStatementCancelled } from '@app/database';
import { ErrorCode } from '@app/domain';
import { ErrorReply, errorReply } from '../errors/error-replies';

/**
 * Postgres unreachable, or a statement cancelled by the statement timeout → 503 with a message a
 * client can act on, instead of a bare 500. Either way the transaction was rolled back.
 * Every other error goes on to Nest's default handling.
 */
@Catch()
export class UnavailableExceptionFilter extends BaseExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger(UnavailableExceptionFilter.name);

  constructor(
    httpAdapter: AbstractHttpAdapter,
    private readonly statementTimeoutMs: number,
  ) {
    super(httpAdapter);
  }

  catch(error: unknown, host: ArgumentsHost): void {
    const reply = unavailableReply(error, this.statementTimeoutMs);
    if (reply === null) {
      super.catch(error, host);
      return;
    }
    this.logger.warn(`${String(reply.message)} (${(error as Error).message})`);
    host.switchToHttp().getResponse<Response>().status(reply.statusCode).json(reply);
  }
}

/** Why the request could not be served now (the same answer over HTTP and RPC), or null when the error is another. */
export function unavailableReply(error: unknown, statementTimeoutMs: number): ErrorReply | null {
  if (error instanceof HttpException) return null;
  if (isDatabaseUnavailable(error)) return errorReply(ErrorCode.StoreUnavailable, DATABASE_UNAVAILABLE_MESSAGE);
  if (isStatementCancelled(error)) {
    return errorReply(
      ErrorCode.StoreTimedOut,
      `The database did not finish within the statement timeout of ${statementTimeoutMs} ms; the request was cancelled and changed nothing. Try again shortly.`,
    );
  }
  return null;
}
