import { ArgumentsHost, Catch, ExceptionFilter, HttpException, Logger } from '@nestjs/common';
import { AbstractHttpAdapter, BaseExceptionFilter } from '@nestjs/core';
import { Response } from 'express';
import { DATABASE_UNAVAILABLE_MESSAGE, isDatabaseUnavailable, isStatementCancelled } from '@app/database';

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
    const message = unavailableMessage(error, this.statementTimeoutMs);
    if (message === null) {
      super.catch(error, host);
      return;
    }
    this.logger.warn(`${message} (${(error as Error).message})`);
    host.switchToHttp().getResponse<Response>().status(503).json({ statusCode: 503, error: 'Service Unavailable', message });
  }
}

/** Why the request could not be served now (answered 503 over HTTP and RPC alike), or null when the error is another. */
export function unavailableMessage(error: unknown, statementTimeoutMs: number): string | null {
  if (error instanceof HttpException) return null;
  if (isDatabaseUnavailable(error)) return DATABASE_UNAVAILABLE_MESSAGE;
  if (isStatementCancelled(error)) {
    return `The database did not finish within the statement timeout of ${statementTimeoutMs} ms; the request was cancelled and changed nothing. Try again shortly.`;
  }
  return null;
}
