import { ArgumentsHost, Catch, ExceptionFilter, Logger } from '@nestjs/common';
import { Response } from 'express';
import { DOMAIN_ERRORS, domainErrorReply } from './error-replies';

/** Domain errors become HTTP answers here, in Nest's usual JSON shape; the RPC filter answers with the same bodies. */
@Catch(...DOMAIN_ERRORS)
export class ApiExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger(ApiExceptionFilter.name);

  catch(error: Error, host: ArgumentsHost): void {
    const reply = domainErrorReply(error) ?? { statusCode: 500, error: 'Internal Server Error', message: error.message };
    this.logger.debug(`${reply.statusCode} ${error.message}`);
    host.switchToHttp().getResponse<Response>().status(reply.statusCode).json(reply);
  }
}
