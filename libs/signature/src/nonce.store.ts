import { Injectable, Logger } from '@nestjs/common';
import { NonceRepository, isDatabaseUnavailable } from '@app/database';
import { NonceStoreUnavailableError } from './signature.errors';

/**
 * Accepted nonces per key, kept for as long as a signature carrying them could verify. Postgres
 * holds them, so a replay is refused whatever happens to Redis; while Postgres is unreachable no
 * request can be verified, and none is let through unverified.
 */
@Injectable()
export class NonceStore {
  private readonly logger = new Logger(NonceStore.name);

  constructor(private readonly nonces: NonceRepository) {}

  /**
   * Records the nonce unless it was already used; one atomic insert-if-absent, so two racing
   * copies of a request cannot both pass. Returns false for a replay.
   */
  async accept(keyId: string, nonce: string, ttlMs: number): Promise<boolean> {
    try {
      return await this.nonces.accept(keyId, nonce, ttlMs);
    } catch (error) {
      if (!isDatabaseUnavailable(error)) throw error;
      this.logger.warn(`Postgres unreachable for replay protection: ${(error as Error).message}`);
      throw new NonceStoreUnavailableError();
    }
  }
}
