/** The request's signature headers are missing, malformed, expired, replayed or do not verify. → 401 */
export class SignatureError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SignatureError';
  }
}

/** The replay-protection store (Redis) did not answer; the request cannot be verified now. → 503 */
export class NonceStoreUnavailableError extends Error {
  constructor(cause: string) {
    super(`Replay protection store (Redis) is unreachable; try again shortly (${cause})`);
    this.name = 'NonceStoreUnavailableError';
  }
}
