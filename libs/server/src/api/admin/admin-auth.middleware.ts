import { Injectable, NestMiddleware } from '@nestjs/common';
import { isIP } from 'node:net';
import { NextFunction, Request, RequestHandler, Response } from 'express';
import basicAuth from 'express-basic-auth';
import { PunctualConfig } from '@app/config';
import { FieldLogger } from '@app/observability';
import { AdminLoginLimiter } from './admin-login-limiter';
import { clientAddress, loginCountScopes } from './client-address';

const REALM = 'Punctual admin';
/** A user name is logged as tried, but no longer than this: it is whatever the client sent. */
const MAX_LOGGED_USER_LENGTH = 64;
/** An `Authorization` header of the Basic scheme: credentials for express-basic-auth to read. */
const BASIC_SCHEME = /^ *basic /i;
/** A refused login's answer, JSON like every other refusal: the admin API's clients read it, a browser shows its login prompt first. */
const LOGIN_REQUIRED = {
  statusCode: 401,
  error: 'Unauthorized',
  message: 'This needs the admin login: HTTP basic auth with ADMIN_USER and ADMIN_PASSWORD.',
};

/** An address as a text log line shows it: quoted unless it is an IP address or range (`TRUST_PROXY=true` believes whatever a client sends). */
function printable(scope: string): string {
  return isIP(scope.replace(/\/64$/, '')) ? scope : JSON.stringify(scope);
}

/**
 * HTTP basic auth for everything under /admin (the console, Bull Board, the admin API), with the
 * one admin user, and a limit on guessing: express-basic-auth compares the credentials in
 * constant time and challenges a request without them.
 *
 * - A request that presents credentials (a Basic `Authorization` header) with a wrong user or
 *   password counts one failure for its client address, and for an IPv6 client for its /64 too
 *   (`loginCountScopes`), and is logged at warn with the address and the user name tried, never
 *   the password or the header.
 * - A request without credentials (no `Authorization` header, or not a Basic one) is challenged
 *   but not counted: a browser sends one before the operator has typed anything, so counting
 *   it would halve the limit for browser users, and it guesses nothing.
 * - After `ADMIN_LOGIN_MAX_FAILURES` failures within `ADMIN_LOGIN_BLOCK_MS`, every request from
 *   that address (or /64), right password or not, answers 429 with `Retry-After` until the block
 *   ends. A successful login does not reset the count: behind an address many share (a NAT, an
 *   office proxy), the operator's own logins would otherwise hand a guesser there a fresh
 *   allowance each time. The count ends with its window.
 * - Each request with credentials asks Redis once, after its password is compared: a wrong one
 *   is counted only while the limit has room (atomically, so a burst sent all at once gets no
 *   more answers than guesses one after another: the rest are 429), and a right one passes only
 *   while the limit is not reached. A right password in a burst is thus answered only when Redis
 *   saw it among the first `ADMIN_LOGIN_MAX_FAILURES` guesses, and is never counted as a failure.
 *
 * One instance per module that applies it (`consumer.apply(AdminAuthMiddleware)`); they share
 * the counts through `AdminLoginLimiter`. Bull Board takes `handler()`.
 */
@Injectable()
export class AdminAuthMiddleware implements NestMiddleware {
  constructor(
    private readonly config: PunctualConfig,
    private readonly limiter: AdminLoginLimiter,
  ) {}

  /** This middleware as a plain Express handler, for Bull Board's `middleware` option. */
  handler(): RequestHandler {
    return (req, res, next) => this.use(req, res, next);
  }

  use(req: Request, res: Response, next: NextFunction): void {
    const address = clientAddress(req);
    const scopes = loginCountScopes(address);
    const check = this.credentialsCheck(address, scopes, res);
    if (BASIC_SCHEME.test(req.headers.authorization ?? '')) {
      void check(req, res, next);
      return;
    }
    // Without credentials: challenged, unless the address is blocked.
    this.limiter.blockedFor(scopes).then((blockedMs) => (blockedMs === null ? void check(req, res, next) : this.refuse(res, blockedMs)), next);
  }

  /**
   * express-basic-auth with the admin user, whose authorizer asks the limiter before it answers:
   * a right login passes unless the address is blocked; a wrong one is counted before the 401
   * goes out, so the next request already sees the count (and the block) from any API process,
   * or answered 429 when the limit has no failure left.
   */
  private credentialsCheck(address: string, scopes: readonly string[], res: Response): RequestHandler {
    const { user: adminUser, password: adminPassword } = this.config.admin;
    return basicAuth({
      challenge: true,
      realm: REALM,
      unauthorizedResponse: LOGIN_REQUIRED,
      authorizeAsync: true,
      authorizer: (user, password, done) => {
        // Both compared in constant time, whichever is wrong, as express-basic-auth's own authorizer does.
        const userMatches = basicAuth.safeCompare(user, adminUser);
        const passwordMatches = basicAuth.safeCompare(password, adminPassword);
        const right = userMatches && passwordMatches;
        const refusal = right ? this.limiter.blockedFor(scopes) : this.failed(address, user, scopes, res);
        // A refused login is answered here, 429, and never reaches express-basic-auth's 401 or the route.
        // Should logging a failure throw, the login is still answered (401) rather than left hanging.
        void refusal.catch(() => null).then((refusedForMs) => (refusedForMs === null ? done(null, right) : this.refuse(res, refusedForMs)));
      },
    });
  }

  /** Counts and logs a failed login: the address and the user name tried, never the password. Milliseconds refused for when the limit had no room. */
  private async failed(address: string, user: string, scopes: readonly string[], res: Response): Promise<number | null> {
    const counted = await this.limiter.countFailure(scopes);
    if (counted && counted.refusedForMs !== null) return counted.refusedForMs;
    const { maxFailures, blockSeconds } = this.limiter;
    const [own, network] = counted?.scopes ?? [];
    const tried = user.slice(0, MAX_LOGGED_USER_LENGTH);
    const fields = {
      clientAddress: address,
      user: tried,
      failures: own?.failures ?? null,
      ...(network ? { network: network.scope, networkFailures: network.failures } : {}),
      requestId: String(res.getHeader('x-request-id') ?? '') || null,
    };
    const text = this.config.logFormat === 'text';
    const inNetwork = network ? `; ${network.failures} from ${network.scope}` : '';
    const counting = own ? ` (failure ${own.failures} of ${maxFailures} allowed within ${blockSeconds} s${inNetwork})` : '';
    FieldLogger.for(this.config, 'AdminLogin', fields).warn(
      text ? `Failed admin login from ${printable(address)} as user ${JSON.stringify(tried)}${counting}` : 'admin login failed',
    );
    const blocked = counted?.scopes.filter((scope) => scope.blockStarted).map((scope) => scope.scope) ?? [];
    if (blocked.length > 0) {
      FieldLogger.for(this.config, 'AdminLogin', { ...fields, blocked: blocked.join(','), blockSeconds }).warn(
        text
          ? `Admin logins from ${blocked.map(printable).join(' and ')} are refused for ${blockSeconds} s after ${maxFailures} failures`
          : 'admin logins blocked',
      );
    }
    return null;
  }

  private refuse(res: Response, blockedMs: number): void {
    const seconds = Math.ceil(blockedMs / 1000);
    res.setHeader('Retry-After', String(seconds));
    res.setHeader('Cache-Control', 'no-store');
    res.status(429).json({
      statusCode: 429,
      error: 'Too Many Requests',
      message: `Too many failed admin logins from this address; try again in ${seconds} s.`,
      retryAfterSeconds: seconds,
    });
  }
}
