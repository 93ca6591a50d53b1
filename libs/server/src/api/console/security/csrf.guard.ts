import { CanActivate, ExecutionContext, Injectable, Logger } from '@nestjs/common';
import { Request, Response } from 'express';
import { ErrorCode, PunctualDomainError } from '@app/domain';
import { claimedOrigin, crossSiteReason } from '../../admin/cross-site';
import { CSRF_FIELD } from '../views/fragments';
import { ConsoleLocals } from './console-session.middleware';
import { CsrfTokens } from './csrf-tokens';

/** A state-changing console request failed the CSRF checks. → 403 page */
export class CsrfRefusedError extends PunctualDomainError {
  readonly code = ErrorCode.CsrfRefused;

  constructor(reason: string) {
    super(`This request was refused because ${reason}. Reload the page and try again.`);
    this.name = 'CsrfRefusedError';
  }
}

/**
 * Guards every state-changing console route with two independent checks: the request comes
 * from a console page (its Origin, or Referer, names this host, and the browser does not mark it
 * as sent from another site: the admin API's rule), and it carries the token of the
 * visitor's session (form field `_csrf` or header `X-CSRF-Token`). Either alone stops a forged
 * cross-site form; together they also hold when a browser omits one header or a proxy strips it.
 */
@Injectable()
export class CsrfGuard implements CanActivate {
  private readonly logger = new Logger(CsrfGuard.name);

  constructor(private readonly tokens: CsrfTokens) {}

  canActivate(context: ExecutionContext): boolean {
    const http = context.switchToHttp();
    const req = http.getRequest<Request>();
    const locals = http.getResponse<Response>().locals as ConsoleLocals;
    const reason = this.refusal(req, locals.consoleSession);
    if (reason) {
      this.logger.warn(`Refused ${req.method} ${req.path}: ${reason}`);
      throw new CsrfRefusedError(reason);
    }
    return true;
  }

  private refusal(req: Request, session: string): string | null {
    const crossSite = crossSiteReason(req);
    if (crossSite) return crossSite;
    if (!claimedOrigin(req)) return 'it does not say which page sent it (no Origin or Referer header)';
    const body = req.body as Record<string, unknown> | undefined;
    const token = body?.[CSRF_FIELD] ?? req.headers['x-csrf-token'];
    if (typeof token !== 'string' || !this.tokens.matches(session, token)) return 'its form token is missing or out of date';
    return null;
  }
}
