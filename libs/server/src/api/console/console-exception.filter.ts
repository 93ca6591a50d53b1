import { ArgumentsHost, Catch, ExceptionFilter } from '@nestjs/common';
import { Response } from 'express';
import { PunctualDomainError } from '@app/domain';
import { ERROR_ANSWERS } from '../errors/error-replies';
import { ActionNotFoundError, InvalidRequestError } from '../errors/action.errors';
import { CalendarNotFoundError } from '../errors/calendar.errors';
import { DeliveryNotFoundError, WebhookNotFoundError } from '../errors/webhook.errors';
import { ConsoleInputError } from './console-input';
import { CsrfRefusedError } from './security/csrf.guard';
import { errorView } from './views/error.view';
import { layout, sendPage } from './views/layout.view';

/** The errors the console shows as a page of their own, with the page's title; the status is the code's answer. */
const PAGES: [new (...args: never[]) => PunctualDomainError, string][] = [
  [ActionNotFoundError, 'Not found'],
  [WebhookNotFoundError, 'Not found'],
  [DeliveryNotFoundError, 'Not found'],
  [CalendarNotFoundError, 'Not found'],
  [ConsoleInputError, 'Bad request'],
  [InvalidRequestError, 'Bad request'],
  [CsrfRefusedError, 'Refused'],
];

/** The console's errors as HTML pages that say what was wrong; nothing was changed by any of them. */
@Catch(...PAGES.map(([type]) => type))
export class ConsoleExceptionFilter implements ExceptionFilter {
  catch(error: PunctualDomainError, host: ArgumentsHost): void {
    const [, title] = PAGES.find(([type]) => error instanceof type)!;
    const { status } = ERROR_ANSWERS[error.code];
    sendPage(host.switchToHttp().getResponse<Response>(), status, layout({ title, body: errorView(status, title, [error.message]) }));
  }
}
