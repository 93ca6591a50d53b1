import { Webhook } from 'standardwebhooks';
import { MessageVerificationError, VerifyMessageOptions, verifyMessage } from './verify-message';

const SECRET = 'billing-secret-0123456789';
const NOW = new Date('2030-01-15T08:35:20.000Z');
const sentAt = Math.floor(NOW.getTime() / 1000) - 3;

/** A message as the worker sends it, signed here by the Standard Webhooks reference implementation rather than by our own code. */
function received(overrides: Record<string, unknown> = {}, secret = SECRET): Record<string, unknown> {
  const fields = { idempotencyKey: 'a1b2:3', payload: { accountId: 'acc-1', amounts: [1, 2.5] }, timestamp: sentAt, ...overrides };
  const signature = new Webhook(Buffer.from(secret, 'utf8').toString('base64')).sign(
    String(fields.idempotencyKey),
    new Date(Number(fields.timestamp) * 1000),
    JSON.stringify(fields.payload),
  );
  return { actionId: 'a1b2', occurrence: 3, scheduledFor: '2030-01-15T08:35:17.120Z', tenant: 'billing', signature, ...fields };
}

const options: VerifyMessageOptions = { tenant: 'billing', secrets: SECRET, now: NOW };
const refusal = (data: unknown, given: Partial<VerifyMessageOptions> = {}) => {
  try {
    verifyMessage(data, { ...options, ...given });
  } catch (error) {
    expect(error).toBeInstanceOf(MessageVerificationError);
    return (error as Error).message;
  }
  throw new Error('the message verified');
};

describe('verifyMessage', () => {
  it('accepts a message signed with the secret, and returns it as it came', () => {
    const message = received();
    expect(verifyMessage<{ accountId: string }>(message, options)).toBe(message);
  });

  it('accepts a message signed with any of several secrets (the tenant keys that may sign)', () => {
    expect(() => verifyMessage(received(), { ...options, secrets: ['another-secret', SECRET] })).not.toThrow();
  });

  it('refuses a changed payload, idempotency key or timestamp', () => {
    const changedPayload = { ...received(), payload: { accountId: 'acc-2', amounts: [1, 2.5] } };
    expect(refusal(changedPayload)).toBe('The message signature matches none of the secrets given');
    expect(refusal({ ...received(), idempotencyKey: 'a1b2:4' })).toBe('The message signature matches none of the secrets given');
    expect(refusal({ ...received(), timestamp: sentAt + 1 })).toBe('The message signature matches none of the secrets given');
  });

  it('refuses an actionId or occurrence that is not the one its signed idempotency key names', () => {
    const problem = "The message's actionId and occurrence do not match its signed idempotency key a1b2:3";
    expect(refusal({ ...received(), actionId: 'c3d4' })).toBe(problem);
    expect(refusal({ ...received(), occurrence: 4 })).toBe(problem);
  });

  it("refuses another tenant's message, and one whose tenant was changed", () => {
    expect(refusal({ ...received(), tenant: 'team-b' })).toBe('The message is from tenant "team-b", not "billing"');
    expect(refusal(received(), { tenant: 'team-b' })).toBe('The message is from tenant "billing", not "team-b"');
  });

  it('refuses a message signed with another secret', () => {
    expect(refusal(received({}, 'other-tenant-secret'))).toBe('The message signature matches none of the secrets given');
  });

  it('refuses a timestamp more than 300 s away, either way, and accepts one at the edge', () => {
    const at = (seconds: number) => received({ timestamp: Math.floor(NOW.getTime() / 1000) + seconds });
    expect(() => verifyMessage(at(-300), options)).not.toThrow();
    expect(() => verifyMessage(at(300), options)).not.toThrow();
    expect(refusal(at(-301))).toMatch(/^The message's timestamp \d+ is more than 300 s away from now \(\d+\)$/);
    expect(refusal(at(301))).toMatch(/more than 300 s away/);
    expect(refusal(at(-30), { toleranceSeconds: 10 })).toMatch(/more than 10 s away/);
  });

  it('refuses data without the signed fields, naming the one that is wrong', () => {
    expect(refusal({ ...received(), signature: undefined })).toBe(
      `The message's "signature" is missing or malformed: it is not a signed Punctual message`,
    );
    expect(refusal({ ...received(), signature: 'v2,abc' })).toMatch(/"signature" is missing or malformed/);
    expect(refusal({ ...received(), timestamp: String(sentAt) })).toMatch(/"timestamp" is missing or malformed/);
    expect(refusal({ ...received(), tenant: undefined })).toMatch(/"tenant" is missing or malformed/);
    const withoutPayload = received();
    delete withoutPayload.payload;
    expect(refusal(withoutPayload)).toMatch(/"payload" is missing or malformed/);
    expect(refusal(null)).toBe('The message data is not an object');
    expect(refusal('text')).toBe('The message data is not an object');
  });

  it('refuses everything when given no secret', () => {
    expect(refusal(received(), { secrets: [] })).toBe('No secret to verify the message with');
  });
});
