import { RequestHandler } from 'express';
import basicAuth from 'express-basic-auth';
import { PunctualConfig } from '@app/config';

/**
 * HTTP basic auth for everything under /admin (the console and the queue admin), with the one
 * admin user. Passwords are compared in constant time; a wrong or missing one gets a challenge.
 */
export function adminBasicAuth(config: PunctualConfig): RequestHandler {
  return basicAuth({
    users: { [config.admin.user]: config.admin.password },
    challenge: true,
    realm: 'Punctual admin',
  });
}
