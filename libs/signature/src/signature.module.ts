import { Module } from '@nestjs/common';
import Redis from 'ioredis';
import { PunctualConfig, redisOptionsFromUrl } from '@app/config';
import { Clock } from '@app/scheduling';
import { NONCE_KEY_PREFIX, NONCE_REDIS, NonceStore } from './nonce.store';
import { SignatureGuard } from './signature.guard';
import { SignatureVerifier } from './signature.verifier';

@Module({
  providers: [
    {
      provide: NONCE_REDIS,
      inject: [PunctualConfig],
      // Fails fast while Redis is down, so a request is answered 503 rather than held. Nonces of
      // requests verified in the same tick go to Redis in one write (auto-pipelining).
      useFactory: (config: PunctualConfig) =>
        new Redis({
          ...redisOptionsFromUrl(config.redis.url),
          enableOfflineQueue: false,
          maxRetriesPerRequest: 1,
          connectTimeout: 2000,
          enableAutoPipelining: true,
        }).on(
          'error',
          () => undefined, // surfaced per request as NonceStoreUnavailableError
        ),
    },
    { provide: NONCE_KEY_PREFIX, inject: [PunctualConfig], useFactory: (config: PunctualConfig) => config.redis.queuePrefix },
    Clock,
    NonceStore,
    SignatureVerifier,
    SignatureGuard,
  ],
  exports: [SignatureVerifier, SignatureGuard],
})
export class SignatureModule {}
