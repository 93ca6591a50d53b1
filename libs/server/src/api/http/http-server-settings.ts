import { INestApplication } from '@nestjs/common';
import { Express } from 'express';
import { PunctualConfig } from '@app/config';

/**
 * The Express settings of the API: no `X-Powered-By` banner naming the framework, and the
 * proxies of `TRUST_PROXY` believed about the client, so that behind a TLS proxy `req.secure`
 * holds (the console's cookie is then `Secure`) and no other peer can claim it.
 */
export function useHttpServerSettings(app: INestApplication): void {
  const server = app.getHttpAdapter().getInstance() as Express;
  server.disable('x-powered-by');
  const { trustProxy } = app.get(PunctualConfig).http;
  server.set('trust proxy', typeof trustProxy === 'object' ? [...trustProxy] : trustProxy);
}
