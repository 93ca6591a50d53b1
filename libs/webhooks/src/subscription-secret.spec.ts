import { SecretCipher, newSubscriptionSecret, signingKeyOf } from './subscription-secret';

const oldKey = Buffer.alloc(32, 1);
const newKey = Buffer.alloc(32, 2);

describe('subscription secrets', () => {
  it('are whsec_ and 24 random bytes, the signing key being those bytes', () => {
    const secret = newSubscriptionSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    expect(signingKeyOf(secret)).toHaveLength(24);
    expect(newSubscriptionSecret()).not.toBe(secret);
  });

  it('are stored encrypted, never in the clear, and differently each time', () => {
    const cipher = new SecretCipher([oldKey]);
    const secret = newSubscriptionSecret();
    const stored = cipher.encrypt(secret);
    expect(stored).not.toContain(secret.slice(6));
    expect(cipher.encrypt(secret)).not.toBe(stored);
    expect(cipher.decrypt(stored)).toBe(secret);
  });

  it('refuse a tampered ciphertext', () => {
    const cipher = new SecretCipher([oldKey]);
    const parts = cipher.encrypt(newSubscriptionSecret()).split('.');
    parts[4] = Buffer.from('not the sealed secret').toString('base64url');
    expect(() => cipher.decrypt(parts.join('.'))).toThrow();
  });

  it('survive a key rotation: the new key first, the old one after it, then the old one removed', () => {
    const secret = newSubscriptionSecret();
    const before = new SecretCipher([oldKey]).encrypt(secret);
    const rotating = new SecretCipher([newKey, oldKey]);
    expect(rotating.decrypt(before)).toBe(secret);
    expect(rotating.isStale(before)).toBe(true);
    const after = rotating.encrypt(rotating.decrypt(before));
    expect(rotating.isStale(after)).toBe(false);
    const rotated = new SecretCipher([newKey]);
    expect(rotated.decrypt(after)).toBe(secret);
    expect(() => rotated.decrypt(before)).toThrow(/no longer lists/);
  });

  it('cannot be made without a key', () => {
    const off = new SecretCipher([]);
    expect(off.enabled).toBe(false);
    expect(() => off.encrypt('whsec_x')).toThrow(/WEBHOOK_SECRET_KEY is not set/);
  });
});
