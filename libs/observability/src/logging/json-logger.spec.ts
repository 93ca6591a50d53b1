import { Writable } from 'node:stream';
import { loadConfig } from '@app/config';
import { createJsonLogger } from './json-logger';

const config = loadConfig({
  API_KEYS: 'k1:secret-one-0123456789,k2:secret-"two"-0123456789',
  ADMIN_USER: 'ops',
  ADMIN_PASSWORD: 'admin-pass-word',
  DATABASE_URL: 'postgres://punctual:db-pass-word@db:5432/punctual',
  LOG_LEVEL: 'debug',
});

/** A JSON logger writing into an array of parsed lines. */
function capture() {
  const lines: Record<string, unknown>[] = [];
  const raw: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString('utf8').split('\n').filter(Boolean)) {
        raw.push(line);
        lines.push(JSON.parse(line));
      }
      done();
    },
  });
  return { logger: createJsonLogger(config, sink), lines, raw };
}

describe('createJsonLogger', () => {
  it('writes level as a label, an ISO time, msg and the fields it is given', () => {
    const { logger, lines } = capture();
    logger.warn({ context: 'ActionProcessor', actionId: 'a1' }, 'attempt failed');
    expect(lines[0]).toMatchObject({ level: 'warn', msg: 'attempt failed', context: 'ActionProcessor', actionId: 'a1' });
    expect(new Date(lines[0].time as string).toISOString()).toBe(lines[0].time);
  });

  it('follows LOG_LEVEL: log is info, verbose is trace', () => {
    const { logger } = capture();
    expect(logger.level).toBe('debug');
    expect(createJsonLogger(loadConfig({ API_KEYS: 'k:0123456789abcdef', ADMIN_PASSWORD: 'long-enough', LOG_LEVEL: 'log' })).level).toBe('info');
  });

  it("never writes a configured secret, a basic-auth header, URL credentials or an action's header values", () => {
    const { logger, raw, lines } = capture();
    const basic = Buffer.from('ops:admin-pass-word').toString('base64');
    logger.error(`signature with secret-one-0123456789 failed; Authorization: Basic ${basic}`);
    logger.error({ detail: 'secret-"two"-0123456789' }, 'quoted secret');
    logger.error('could not connect to postgres://punctual:db-pass-word@db:5432/punctual or smtp://mailer:hunter22@smtp:587');
    logger.info(
      { data: { url: 'http://hooks', headers: { authorization: 'Bearer header-token-1' } }, headers: { 'x-punctual-signature': 'v1=abc' } },
      'objects',
    );
    const text = raw.join('\n');
    for (const secret of [
      'secret-one-0123456789',
      'secret-"two"-0123456789',
      'secret-\\"two\\"-0123456789',
      basic,
      'admin-pass-word',
      'db-pass-word',
      'hunter22',
      'header-token-1',
      'v1=abc',
    ]) {
      expect(text).not.toContain(secret);
    }
    expect(lines[2].msg).toBe('could not connect to postgres://[REDACTED]@db:5432/punctual or smtp://[REDACTED]@smtp:587');
    expect(lines[3]).toMatchObject({
      data: { url: 'http://hooks', headers: { authorization: '[REDACTED]' } },
      headers: { 'x-punctual-signature': '[REDACTED]' },
    });
  });
});
