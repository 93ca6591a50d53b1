import { randomBytes } from 'node:crypto';

const SECRET_PREFIX = 'whsec_';

/** A new subscription secret: `whsec_` + base64 of 24 random bytes, as Standard Webhooks libraries expect. */
export function newSubscriptionSecret(): string {
  return SECRET_PREFIX + randomBytes(24).toString('base64');
}

/** The HMAC key of a `whsec_` secret: the bytes its base64 decodes to. */
export function signingKeyOf(secret: string): Buffer {
  return Buffer.from(secret.slice(SECRET_PREFIX.length), 'base64');
}
