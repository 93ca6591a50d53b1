import { Inject, Injectable, OnModuleDestroy } from '@nestjs/common';
import Redis from 'ioredis';
import { NonceStoreUnavailableError } from './signature.errors';

export const NONCE_REDIS = Symbol('NONCE_REDIS');
export const NONCE_KEY_PREFIX = Symbol('NONCE_KEY_PREFIX');

/** Accepted nonces per key, kept in Redis for as long as a signature with them could be valid. */
@Injectable()
export class NonceStore implements OnModuleDestroy {
  constructor(
    @Inject(NONCE_REDIS) private readonly redis: Redis,
    @Inject(NONCE_KEY_PREFIX) private readonly prefix: string,
  ) {}

  /**
   * Records the nonce unless it was already used; one atomic `SET NX`, so two racing copies of a
   * request cannot both pass. Returns false for a replay.
   */
  async accept(keyId: string, nonce: string, ttlMs: number): Promise<boolean> {
    try {
      return (await this.redis.set(`${this.prefix}:nonce:${keyId}:${nonce}`, '1', 'PX', ttlMs, 'NX')) === 'OK';
    } catch (error) {
      throw new NonceStoreUnavailableError((error as Error).message);
    }
  }

  onModuleDestroy(): void {
    this.redis.disconnect();
  }
}
