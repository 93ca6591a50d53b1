import { Catch, HttpException, Logger, RpcExceptionFilter } from '@nestjs/common';
import { Observable, throwError } from 'rxjs';
import { PunctualConfig } from '@app/config';
import { PunctualDomainError } from '@app/domain';
import { ErrorReply, domainErrorReply, httpExceptionReply } from '../errors/error-replies';
import { unavailableReply } from '../http/unavailable-exception.filter';
import { QuotaExceededError } from '../errors/quota.errors';

/** When a refused quota may be asked again, by the reply the filter threw: gRPC sends it as `retry-after` metadata, beside the body. */
const retryAfters = new WeakMap<object, number>();

/** The seconds after which a quota refusal's reply may succeed; undefined for any other error. */
export function retryAfterOf(reply: unknown): number | undefined {
  return typeof reply === 'object' && reply !== null ? retryAfters.get(reply) : undefined;
}

/**
 * Every error of a message handler reaches the caller as the body its HTTP twin would answer:
 * errors of ours (the guard's among them) by their code, as HTTP maps them, the pipes' exceptions as
 * Nest renders them, an unreachable database as 503, anything else as 500 without details.
 */
@Catch()
export class RpcErrorFilter implements RpcExceptionFilter {
  private readonly logger = new Logger(RpcErrorFilter.name);

  constructor(private readonly config: PunctualConfig) {}

  catch(error: unknown): Observable<never> {
    const reply = this.replyTo(error);
    if (error instanceof QuotaExceededError) retryAfters.set(reply, error.retryAfterSeconds);
    if (reply.statusCode >= 500) this.logger.warn(`RPC ${reply.statusCode}: ${(error as Error).stack ?? String(error)}`);
    else this.logger.debug(`RPC ${reply.statusCode} ${JSON.stringify(reply.message)}`);
    return throwError(() => reply);
  }

  private replyTo(error: unknown): ErrorReply {
    if (error instanceof PunctualDomainError) return domainErrorReply(error);
    if (error instanceof HttpException) return httpExceptionReply(error);
    const unavailable = unavailableReply(error, this.config.database.statementTimeoutMs);
    if (unavailable) return unavailable;
    return { statusCode: 500, error: 'Internal Server Error', message: 'Internal server error' };
  }
}
