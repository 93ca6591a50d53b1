import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { PunctualConfig } from '@app/config';
import { NonceRepository, dataSourceOptions } from '@app/database';
import { Clock } from '@app/domain';
import { TcpProxy } from '@app/testing';
import { KeyRegistry } from './key-registry';
import { NonceStore } from './nonce.store';
import { NonceStoreUnavailableError, SignatureError } from './signature.errors';
import { SignatureVerifier, SignedRequest } from './signature.verifier';
import { signRequest } from '@punctual/contract';

const NOW = new Date('2026-01-01T00:00:00.000Z');
const nowSeconds = NOW.getTime() / 1000;
const config = {
  auth: {
    apiKeys: new Map([
      ['k1', { secret: 'secret-one', tenant: 'default' }],
      ['k2', { secret: 'secret-two', tenant: 'team-b' }],
    ]),
    signatureWindowSeconds: 300,
  },
} as unknown as PunctualConfig;
const clock: Clock = { now: () => NOW };
/** The configured keys alone: no key made at run time. */
const configuredKeys = { find: (keyId: string) => config.auth.apiKeys.get(keyId) } as KeyRegistry;

function verifierOn(dataSource: DataSource): SignatureVerifier {
  return new SignatureVerifier(config, configuredKeys, new NonceStore(new NonceRepository(dataSource)), clock);
}

describe('SignatureVerifier (real Postgres for nonces)', () => {
  const dataSource = new DataSource(dataSourceOptions(process.env.DATABASE_URL!));
  const verifier = verifierOn(dataSource);
  beforeAll(() => dataSource.initialize());
  afterAll(() => dataSource.destroy());

  const body = '{"action":"HTTP_REQUEST"}';
  function request(overrides: Partial<Parameters<typeof signRequest>[0]> = {}, change: Partial<SignedRequest> = {}): SignedRequest {
    const input = { keyId: 'k1', secret: 'secret-one', method: 'POST', pathWithQuery: '/actions', body, timestamp: nowSeconds, ...overrides };
    const headers = Object.fromEntries(Object.entries(signRequest(input)).map(([k, v]) => [k.toLowerCase(), v]));
    return { headers, method: 'POST', pathWithQuery: '/actions', rawBody: Buffer.from(body), ...change };
  }
  const without = (header: string) => {
    const signed = request();
    delete signed.headers[header];
    return signed;
  };
  const withHeader = (header: string, value: string) => {
    const signed = request();
    signed.headers[header] = value;
    return signed;
  };

  it('accepts a valid request and names its key', async () => {
    await expect(verifier.verify(request())).resolves.toEqual({ keyId: 'k1', tenant: 'default' });
  });

  it('accepts the second (rotated) key', async () => {
    await expect(verifier.verify(request({ keyId: 'k2', secret: 'secret-two' }))).resolves.toEqual({ keyId: 'k2', tenant: 'team-b' });
  });

  it('accepts the same body twice with fresh nonces', async () => {
    await expect(verifier.verify(request())).resolves.toBeDefined();
    await expect(verifier.verify(request())).resolves.toBeDefined();
  });

  it.each(['x-punctual-key', 'x-punctual-timestamp', 'x-punctual-nonce', 'x-punctual-signature'])('rejects a missing %s', async (header) => {
    await expect(verifier.verify(without(header))).rejects.toThrow(new RegExp(`Missing header ${header}`, 'i'));
  });

  it.each([
    ['a timestamp that is not seconds', 'x-punctual-timestamp', '2026-01-01T00:00:00Z', /must be Unix time in seconds/],
    ['a short nonce', 'x-punctual-nonce', 'abc', /must be 16 to 128 characters/],
    ['a nonce with bad characters', 'x-punctual-nonce', 'a'.repeat(20) + '!', /must be 16 to 128 characters/],
    ['a signature without v1=', 'x-punctual-signature', 'a'.repeat(64), /must be v1= followed by 64 lowercase hex/],
    ['a non-hex signature', 'x-punctual-signature', 'v1=' + 'z'.repeat(64), /must be v1= followed by 64 lowercase hex/],
  ])('rejects %s', async (_name, header, value, message) => {
    await expect(verifier.verify(withHeader(header, value))).rejects.toThrow(message);
  });

  it('rejects an unknown key', async () => {
    await expect(verifier.verify(request({ keyId: 'k9' }))).rejects.toThrow("Unknown key id 'k9'");
  });

  it('rejects an expired timestamp and one from the future', async () => {
    await expect(verifier.verify(request({ timestamp: nowSeconds - 301 }))).rejects.toThrow('301 s away from server time; allowed skew is 300 s');
    await expect(verifier.verify(request({ timestamp: nowSeconds + 301 }))).rejects.toThrow('301 s away from server time');
    await expect(verifier.verify(request({ timestamp: nowSeconds - 300 }))).resolves.toBeDefined();
  });

  it.each([
    ['body', { rawBody: Buffer.from('{"action":"OTHER"}') }],
    ['path', { pathWithQuery: '/actions?status=FAILED' }],
    ['method', { method: 'PUT' }],
  ])('rejects a tampered %s', async (_name, change) => {
    await expect(verifier.verify(request({}, change))).rejects.toThrow(/Signature does not match for key 'k1'/);
  });

  it('rejects a wrong secret without using up the nonce', async () => {
    const nonce = randomUUID();
    await expect(verifier.verify(request({ secret: 'wrong', nonce }))).rejects.toThrow(SignatureError);
    await expect(verifier.verify(request({ nonce }))).resolves.toBeDefined();
  });

  it('rejects a replay, also with a fresh signature over a used nonce', async () => {
    const signed = request();
    await verifier.verify(signed);
    await expect(verifier.verify(signed)).rejects.toThrow("Nonce already used for key 'k1'");
    const reused = request({ nonce: signed.headers['x-punctual-nonce'] as string, body: '{}' }, { rawBody: '{}' });
    await expect(verifier.verify(reused)).rejects.toThrow('Nonce already used');
  });

  it('keeps a nonce until its timestamp leaves the window (plus a margin), whichever side of the server clock it was signed on', async () => {
    const keptSeconds = async (offsetSeconds: number) => {
      const signed = request({ timestamp: nowSeconds + offsetSeconds });
      await verifier.verify(signed);
      const [{ seconds }] = await dataSource.query(
        `SELECT extract(epoch FROM expires_at - now()) AS seconds FROM accepted_nonces WHERE key_id = 'k1' AND nonce = $1`,
        [signed.headers['x-punctual-nonce']],
      );
      return Math.round(Number(seconds));
    };
    expect(await keptSeconds(-300)).toBe(30);
    expect(await keptSeconds(0)).toBe(330);
    expect(await keptSeconds(300)).toBe(630);
  });

  it('lets exactly one of two racing copies through', async () => {
    const signed = request();
    const results = await Promise.allSettled([verifier.verify(signed), verifier.verify(signed)]);
    expect(results.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected']);
  });

  it('lets exactly one copy of each request through when many are verified at once', async () => {
    const requests = Array.from({ length: 20 }, () => request());
    const copies = [...requests, ...requests, ...requests].sort(() => Math.random() - 0.5);
    const results = await Promise.allSettled(copies.map((signed) => verifier.verify(signed)));
    const passedPerNonce = new Map<string, number>();
    results.forEach((result, i) => {
      if (result.status === 'rejected') expect(result.reason.message).toMatch('Nonce already used');
      const nonce = copies[i].headers['x-punctual-nonce'] as string;
      passedPerNonce.set(nonce, (passedPerNonce.get(nonce) ?? 0) + (result.status === 'fulfilled' ? 1 : 0));
    });
    expect([...passedPerNonce.values()]).toEqual(Array(20).fill(1));
  });

  it('refuses to verify while Postgres is unreachable, without using up the nonce', async () => {
    const proxy = await new TcpProxy('127.0.0.1', 5432).start();
    const proxied = new DataSource(dataSourceOptions(proxy.proxied(process.env.DATABASE_URL!)));
    await proxied.initialize();
    try {
      const signed = request();
      proxy.cut();
      await expect(verifierOn(proxied).verify(signed)).rejects.toThrow(NonceStoreUnavailableError);
      proxy.restore();
      await expect(verifierOn(proxied).verify(signed)).resolves.toEqual({ keyId: 'k1', tenant: 'default' });
      await expect(verifier.verify(signed)).rejects.toThrow('Nonce already used');
    } finally {
      await proxied.destroy();
      await proxy.stop();
    }
  });
});
