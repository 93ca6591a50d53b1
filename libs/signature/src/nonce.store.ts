import { Inject, Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import Redis from 'ioredis';
import { NonceRepository } from '@app/database';
import { NonceStoreUnavailableError } from './signature.errors';

export const NONCE_REDIS = Symbol('NONCE_REDIS');
export const NONCE_KEY_PREFIX = Symbol('NONCE_KEY_PREFIX');

/**
 * Accepted nonces per key, kept for as long as a signature with them could be valid: in Redis,
 * or in Postgres while Redis is unreachable, so that clients can still schedule actions then.
 * (A nonce accepted through Redis just before it went down is not known to Postgres: a replay in
 * that moment would pass. The timestamp window bounds it to 300 s.)
 */
@Injectable()
export class NonceStore implements OnModuleDestroy {
  private readonly logger = new Logger(NonceStore.name);

  constructor(
    @Inject(NONCE_REDIS) private readonly redis: Redis,
    @Inject(NONCE_KEY_PREFIX) private readonly prefix: string,
    private readonly fallback: NonceRepository,
  ) {}

  /**
   * Records the nonce unless it was already used; one atomic `SET NX` (or a primary key), so two
   * racing copies of a request cannot both pass. Returns false for a replay.
   */
  async accept(keyId: string, nonce: string, ttlMs: number): Promise<boolean> {
    try {
      return (await this.redis.set(`${this.prefix}:nonce:${keyId}:${nonce}`, '1', 'PX', ttlMs, 'NX')) === 'OK';
    } catch (redisError) {
      this.logger.warn(`Redis unreachable for replay protection, using Postgres: ${(redisError as Error).message}`);
      try {
        return await this.fallback.accept(keyId, nonce, ttlMs);
      } catch (error) {
        throw new NonceStoreUnavailableError(`${(redisError as Error).message}; ${(error as Error).message}`);
      }
    }
  }

  onModuleDestroy(): void {
    this.redis.disconnect();
  }
}
