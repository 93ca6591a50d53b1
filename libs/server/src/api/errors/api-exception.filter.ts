import { ArgumentsHost, Catch, ExceptionFilter, Logger } from '@nestjs/common';
import { Response } from 'express';
import { PunctualDomainError } from '@app/domain';
import { domainErrorReply } from './error-replies';
import { QuotaExceededError } from './quota.errors';

/** Errors of ours become HTTP answers here, by their code, in Nest's usual JSON shape; the RPC filter answers with the same bodies. */
@Catch(PunctualDomainError)
export class ApiExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger(ApiExceptionFilter.name);

  catch(error: PunctualDomainError, host: ArgumentsHost): void {
    const reply = domainErrorReply(error);
    this.logger.debug(`${reply.statusCode} ${error.message}`);
    const response = host.switchToHttp().getResponse<Response>();
    if (error instanceof QuotaExceededError) response.setHeader('Retry-After', String(error.retryAfterSeconds));
    response.status(reply.statusCode).json(reply);
  }
}
