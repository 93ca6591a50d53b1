import { ArgumentsHost, Catch, ExceptionFilter, HttpException, Logger } from '@nestjs/common';
import { BaseExceptionFilter } from '@nestjs/core';
import { Response } from 'express';
import { isDatabaseUnavailable } from '@app/database';

/**
 * Postgres unreachable → 503 with a message a client can act on, instead of a bare 500.
 * Every other error goes on to Nest's default handling.
 */
@Catch()
export class UnavailableExceptionFilter extends BaseExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger(UnavailableExceptionFilter.name);

  catch(error: unknown, host: ArgumentsHost): void {
    if (!(error instanceof HttpException) && isDatabaseUnavailable(error)) {
      this.logger.warn(`Postgres unreachable: ${(error as Error).message}`);
      host.switchToHttp().getResponse<Response>().status(503).json({
        statusCode: 503,
        error: 'Service Unavailable',
        message: 'The database is unreachable; nothing was changed. Try again shortly.',
      });
      return;
    }
    super.catch(error, host);
  }
}
