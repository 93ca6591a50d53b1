import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

/**
 * Secrets at rest (webhook subscriptions', API keys'): AES-256-GCM under the key ring `SECRET_KEY`.
 * A ciphertext names the key that made it (a fingerprint), so during a rotation old secrets still
 * open with the old key while new ones are made with the first key listed.
 */
export class KeyRing {
  private readonly byFingerprint: Map<string, Buffer>;

  constructor(private readonly keys: readonly Buffer[]) {
    this.byFingerprint = new Map(keys.map((key) => [fingerprintOf(key), key]));
  }

  get enabled(): boolean {
    return this.keys.length > 0;
  }

  /** `v1.<key fingerprint>.<iv>.<tag>.<ciphertext>`, all base64url. */
  encrypt(secret: string): string {
    const key = this.keys[0];
    if (!key) throw new Error('SECRET_KEY is not set');
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', key, iv);
    const sealed = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
    return ['v1', fingerprintOf(key), iv, cipher.getAuthTag(), sealed]
      .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
      .join('.');
  }

  decrypt(stored: string): string {
    const [version, fingerprint, iv, tag, sealed] = stored.split('.');
    const key = this.byFingerprint.get(fingerprint);
    if (version !== 'v1' || !key) throw new Error('The secret was encrypted with a key that SECRET_KEY no longer lists');
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(sealed, 'base64url')), decipher.final()]).toString('utf8');
  }

  /** Whether `stored` was made with an older key than the first one listed (it should be re-encrypted). */
  isStale(stored: string): boolean {
    return stored.split('.')[1] !== fingerprintOf(this.keys[0]);
  }
}

function fingerprintOf(key: Buffer): string {
  return createHash('sha256').update(key).digest('base64url').slice(0, 8);
}
