import { Injectable, NestMiddleware } from '@nestjs/common';
import { isIP } from 'node:net';
import { NextFunction, Request, RequestHandler, Response } from 'express';
import basicAuth from 'express-basic-auth';
import { PunctualConfig } from '@app/config';
import { FieldLogger } from '@app/observability';
import { AdminLoginLimiter } from './admin-login-limiter';

const REALM = 'Punctual admin';
/** A user name is logged as tried, but no longer than this: it is whatever the client sent. */
const MAX_LOGGED_USER_LENGTH = 64;

/** The client's address as Express sees it (`TRUST_PROXY` decides whether X-Forwarded-For counts), IPv4 without its IPv6 wrapping. */
export function clientAddress(req: Request): string {
  const address = req.ip ?? req.socket.remoteAddress ?? 'unknown';
  return address.startsWith('::ffff:') && address.includes('.') ? address.slice('::ffff:'.length) : address;
}

/** An address as a text log line shows it: quoted unless it is an IP address (`TRUST_PROXY=true` believes whatever a client sends). */
function printable(address: string): string {
  return isIP(address) ? address : JSON.stringify(address);
}

/**
 * HTTP basic auth for everything under /admin (the console, Bull Board, the admin API), with the
 * one admin user, and a limit on guessing: express-basic-auth compares the credentials in
 * constant time and challenges a request without them.
 *
 * - A request that presents credentials (a Basic `Authorization` header) with a wrong user or
 *   password counts one failure for its client address, and is logged at warn with the address
 *   and the user name tried, never the password or the header.
 * - A request without credentials (no `Authorization` header, or not a Basic one) is challenged
 *   but not counted: a browser sends one before the operator has typed anything, so counting
 *   it would halve the limit for browser users, and it guesses nothing.
 * - After `ADMIN_LOGIN_MAX_FAILURES` failures within `ADMIN_LOGIN_BLOCK_MS`, every request from
 *   that address, right password or not, answers 429 with `Retry-After` until the block ends.
 *   A successful login does not reset the count: behind an address many share (a NAT, an
 *   office proxy), the operator's own logins would otherwise hand a guesser there a fresh
 *   allowance each time. The count ends with its window.
 * - The block is checked before the password and the failure counted after it, so requests sent
 *   all at once, before the first of their failures is counted, are all checked: the limit holds
 *   for guesses one after another, and a burst gets as many as it sends at once, once per block.
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
    this.limiter.blockedFor(address).then((blockedMs) => {
      if (blockedMs !== null) return this.refuse(res, blockedMs);
      this.credentialsCheck(address, res)(req, res, next);
    }, next);
  }

  /**
   * express-basic-auth with the admin user, whose authorizer counts a wrong login before the 401
   * goes out, so the next request already sees the count (and the block) from any API process.
   */
  private credentialsCheck(address: string, res: Response): RequestHandler {
    const { user: adminUser, password: adminPassword } = this.config.admin;
    return basicAuth({
      challenge: true,
      realm: REALM,
      authorizeAsync: true,
      authorizer: (user, password, done) => {
        // Both compared in constant time, whichever is wrong, as express-basic-auth's own authorizer does.
        const userMatches = basicAuth.safeCompare(user, adminUser);
        const passwordMatches = basicAuth.safeCompare(password, adminPassword);
        if (userMatches && passwordMatches) return done(null, true);
        void this.failed(address, user, res)
          .catch(() => undefined)
          .then(() => done(null, false));
      },
    });
  }

  /** Counts and logs a failed login: the address and the user name tried, never the password. */
  private async failed(address: string, user: string, res: Response): Promise<void> {
    const counted = await this.limiter.countFailure(address);
    const { maxFailures, blockSeconds } = this.limiter;
    const tried = user.slice(0, MAX_LOGGED_USER_LENGTH);
    const fields = {
      clientAddress: address,
      user: tried,
      failures: counted?.failures ?? null,
      requestId: String(res.getHeader('x-request-id') ?? '') || null,
    };
    const text = this.config.logFormat === 'text';
    const counting = counted ? ` (failure ${counted.failures} of ${maxFailures} allowed within ${blockSeconds} s)` : '';
    FieldLogger.for(this.config, 'AdminLogin', fields).warn(
      text ? `Failed admin login from ${printable(address)} as user ${JSON.stringify(tried)}${counting}` : 'admin login failed',
    );
    if (counted?.blockStarted) {
      FieldLogger.for(this.config, 'AdminLogin', { ...fields, blockSeconds }).warn(
        text ? `Admin logins from ${printable(address)} are refused for ${blockSeconds} s after ${counted.failures} failures` : 'admin logins blocked',
      );
    }
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
