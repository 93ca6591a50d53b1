import { KeyRing } from './key-ring';

const oldKey = Buffer.alloc(32, 1);
const newKey = Buffer.alloc(32, 2);
const secret = 'whsec_c2VjcmV0LWJ5dGVzLWZvci10aGUtc3BlYw==';

describe('the key ring', () => {
  it('stores secrets encrypted, never in the clear, and differently each time', () => {
    const cipher = new KeyRing([oldKey]);
    const stored = cipher.encrypt(secret);
    expect(stored).not.toContain(secret.slice(6));
    expect(cipher.encrypt(secret)).not.toBe(stored);
    expect(cipher.decrypt(stored)).toBe(secret);
  });

  it('refuses a tampered ciphertext', () => {
    const cipher = new KeyRing([oldKey]);
    const parts = cipher.encrypt(secret).split('.');
    parts[4] = Buffer.from('not the sealed secret').toString('base64url');
    expect(() => cipher.decrypt(parts.join('.'))).toThrow();
  });

  it('survives a rotation: the new key first, the old one after it, then the old one removed', () => {
    const before = new KeyRing([oldKey]).encrypt(secret);
    const rotating = new KeyRing([newKey, oldKey]);
    expect(rotating.decrypt(before)).toBe(secret);
    expect(rotating.isStale(before)).toBe(true);
    const after = rotating.encrypt(rotating.decrypt(before));
    expect(rotating.isStale(after)).toBe(false);
    const rotated = new KeyRing([newKey]);
    expect(rotated.decrypt(after)).toBe(secret);
    expect(() => rotated.decrypt(before)).toThrow(/no longer lists/);
  });

  it('encrypts nothing without a key', () => {
    const off = new KeyRing([]);
    expect(off.enabled).toBe(false);
    expect(() => off.encrypt('whsec_x')).toThrow(/SECRET_KEY is not set/);
  });
});
