import { ArgumentsHost, Catch, ExceptionFilter, HttpStatus, Logger } from '@nestjs/common';
import { Response } from 'express';
import { InvalidActionDataError, UnknownActionTypeError } from '@app/fulfillment';
import { ActionConflictError, ActionNotFoundError, InvalidRequestError } from './action.errors';

const STATUS_BY_ERROR: [new (...args: never[]) => Error, HttpStatus, string][] = [
  [ActionNotFoundError, HttpStatus.NOT_FOUND, 'Not Found'],
  [ActionConflictError, HttpStatus.CONFLICT, 'Conflict'],
  [InvalidRequestError, HttpStatus.BAD_REQUEST, 'Bad Request'],
  [InvalidActionDataError, HttpStatus.BAD_REQUEST, 'Bad Request'],
  [UnknownActionTypeError, HttpStatus.BAD_REQUEST, 'Bad Request'],
];

/** The one place where domain errors become HTTP answers, in Nest's usual JSON shape. */
@Catch(ActionNotFoundError, ActionConflictError, InvalidRequestError, InvalidActionDataError, UnknownActionTypeError)
export class ApiExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger(ApiExceptionFilter.name);

  catch(error: Error, host: ArgumentsHost): void {
    const [, statusCode, label] = STATUS_BY_ERROR.find(([type]) => error instanceof type) ?? [Error, 500, 'Internal Server Error'];
    this.logger.debug(`${statusCode} ${error.message}`);
    const message = error instanceof InvalidActionDataError ? error.problems : error.message;
    host.switchToHttp().getResponse<Response>().status(statusCode).json({ statusCode, error: label, message });
  }
}
