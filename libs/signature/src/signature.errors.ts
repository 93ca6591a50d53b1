/** The request's signature headers are missing, malformed, expired, replayed or do not verify. → 401 */
export class SignatureError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SignatureError';
  }
}

/** Neither Redis nor Postgres answered for replay protection; the request cannot be verified now. → 503 */
export class NonceStoreUnavailableError extends Error {
  constructor(cause: string) {
    super(`Replay protection is unavailable (Redis and Postgres unreachable); try again shortly (${cause})`);
    this.name = 'NonceStoreUnavailableError';
  }
}
