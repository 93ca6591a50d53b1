import { ExecutionContext, createParamDecorator } from '@nestjs/common';
import { Response } from 'express';
import { ConsoleLocals } from './console-session.middleware';

/** The CSRF token of the visitor's console session, for the forms of the page being rendered. */
export const CsrfToken = createParamDecorator((_: unknown, context: ExecutionContext): string => {
  return (context.switchToHttp().getResponse<Response>().locals as ConsoleLocals).csrfToken;
});
