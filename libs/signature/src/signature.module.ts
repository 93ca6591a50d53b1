import { Module } from '@nestjs/common';
import { Clock } from '@app/domain';
import { KeyRegistry } from './key-registry';
import { NonceStore } from './nonce.store';
import { SignatureGuard } from './signature.guard';
import { SignatureVerifier } from './signature.verifier';
import { SigningKeys } from './signing-keys';

@Module({
  providers: [Clock, NonceStore, KeyRegistry, SignatureVerifier, SignatureGuard, SigningKeys],
  exports: [SignatureVerifier, SignatureGuard, KeyRegistry, SigningKeys],
})
export class SignatureModule {}
