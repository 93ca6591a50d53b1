import { Catch, HttpException, Logger, RpcExceptionFilter } from '@nestjs/common';
import { Observable, throwError } from 'rxjs';
import { PunctualConfig } from '@app/config';
import { ErrorReply, domainErrorReply, httpExceptionReply } from '../errors/error-replies';
import { unavailableMessage } from '../http/unavailable-exception.filter';

/**
 * Every error of a message handler reaches the caller as the body its HTTP twin would answer:
 * domain errors by class (the mapping HTTP uses), the guard's and the pipes' exceptions as Nest
 * renders them, an unreachable database as 503, anything else as 500 without details.
 */
@Catch()
export class RpcErrorFilter implements RpcExceptionFilter {
  private readonly logger = new Logger(RpcErrorFilter.name);

  constructor(private readonly config: PunctualConfig) {}

  catch(error: unknown): Observable<never> {
    const reply = this.replyTo(error);
    if (reply.statusCode >= 500) this.logger.warn(`RPC ${reply.statusCode}: ${(error as Error).stack ?? String(error)}`);
    else this.logger.debug(`RPC ${reply.statusCode} ${JSON.stringify(reply.message)}`);
    return throwError(() => reply);
  }

  private replyTo(error: unknown): ErrorReply {
    const domain = domainErrorReply(error);
    if (domain) return domain;
    if (error instanceof HttpException) return httpExceptionReply(error);
    const unavailable = unavailableMessage(error, this.config.database.statementTimeoutMs);
    if (unavailable) return { statusCode: 503, error: 'Service Unavailable', message: unavailable };
    return { statusCode: 500, error: 'Internal Server Error', message: 'Internal server error' };
  }
}
