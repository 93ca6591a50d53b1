import { Injectable, NestMiddleware } from '@nestjs/common';
import { parseCookie } from 'cookie';
import { NextFunction, Request, Response } from 'express';
import { CsrfTokens } from './csrf-tokens';

export const SESSION_COOKIE = 'punctual_console';

/** What the console keeps on `res.locals` for one request. */
export interface ConsoleLocals {
  consoleSession: string;
  csrfToken: string;
}

/**
 * Gives every console visitor a session id cookie (HttpOnly, SameSite=Strict, only for /admin)
 * and the CSRF token that goes with it, which pages put in their forms. It proves nothing about
 * who the visitor is: basic auth does that, before this runs.
 */
@Injectable()
export class ConsoleSessionMiddleware implements NestMiddleware {
  constructor(private readonly tokens: CsrfTokens) {}

  use(req: Request, res: Response, next: NextFunction): void {
    let session = parseCookie(req.headers.cookie ?? '')[SESSION_COOKIE];
    if (!this.tokens.isSession(session)) {
      session = this.tokens.newSession();
      res.cookie(SESSION_COOKIE, session, { path: '/admin', httpOnly: true, sameSite: 'strict', secure: req.secure });
    }
    const locals: ConsoleLocals = { consoleSession: session, csrfToken: this.tokens.tokenFor(session) };
    Object.assign(res.locals, locals);
    next();
  }
}
