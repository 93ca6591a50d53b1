import { newSubscriptionSecret, signingKeyOf } from './subscription-secret';

describe('subscription secrets', () => {
  it('are whsec_ and 24 random bytes, the signing key being those bytes', () => {
    const secret = newSubscriptionSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    expect(signingKeyOf(secret)).toHaveLength(24);
    expect(newSubscriptionSecret()).not.toBe(secret);
  });
});
