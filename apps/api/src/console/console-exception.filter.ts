import { ArgumentsHost, Catch, ExceptionFilter, HttpStatus } from '@nestjs/common';
import { Response } from 'express';
import { ActionNotFoundError, InvalidRequestError } from '../errors/action.errors';
import { ConsoleInputError } from './console-input';
import { CsrfRefusedError } from './security/csrf.guard';
import { errorView } from './views/error.view';
import { layout, sendPage } from './views/layout.view';

const PAGES: [new (...args: never[]) => Error, HttpStatus, string][] = [
  [ActionNotFoundError, HttpStatus.NOT_FOUND, 'Not found'],
  [ConsoleInputError, HttpStatus.BAD_REQUEST, 'Bad request'],
  [InvalidRequestError, HttpStatus.BAD_REQUEST, 'Bad request'],
  [CsrfRefusedError, HttpStatus.FORBIDDEN, 'Refused'],
];

/** The console's errors as HTML pages that say what was wrong; nothing was changed by any of them. */
@Catch(ActionNotFoundError, ConsoleInputError, InvalidRequestError, CsrfRefusedError)
export class ConsoleExceptionFilter implements ExceptionFilter {
  catch(error: Error, host: ArgumentsHost): void {
    const [, status, title] = PAGES.find(([type]) => error instanceof type)!;
    sendPage(host.switchToHttp().getResponse<Response>(), status, layout({ title, body: errorView(status, title, [error.message]) }));
  }
}
