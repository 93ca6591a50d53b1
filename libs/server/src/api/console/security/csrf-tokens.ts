import { Injectable } from '@nestjs/common';
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { PunctualConfig } from '@app/config';

const SESSION = /^[A-Za-z0-9_-]{43}$/;

/**
 * Synchronizer tokens for the console's forms. Each browser gets a random session id in an
 * HttpOnly cookie; its token is an HMAC of that id under a key derived from the admin
 * credentials, so every API instance issues and checks the same tokens without shared state,
 * and changing the admin password invalidates them all. Another site can make the browser send
 * the cookie (and the basic-auth header), but can never read the token that goes with it.
 */
@Injectable()
export class CsrfTokens {
  private readonly key: Buffer;

  constructor(config: PunctualConfig) {
    this.key = createHmac('sha256', config.admin.password).update(`punctual console csrf\n${config.admin.user}`).digest();
  }

  newSession(): string {
    return randomBytes(32).toString('base64url');
  }

  isSession(value: string | undefined): value is string {
    return value !== undefined && SESSION.test(value);
  }

  tokenFor(session: string): string {
    return createHmac('sha256', this.key).update(session).digest('base64url');
  }

  /** Whether `token` belongs to `session`, compared in constant time. */
  matches(session: string, token: string): boolean {
    const expected = Buffer.from(this.tokenFor(session));
    const given = Buffer.from(token);
    return given.length === expected.length && timingSafeEqual(given, expected);
  }
}
