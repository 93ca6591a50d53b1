import { Module } from '@nestjs/common';
import { Clock } from '@app/domain';
import { KeyRegistry } from './key-registry';
import { NonceStore } from './nonce.store';
import { SignatureGuard } from './signature.guard';
import { SignatureVerifier } from './signature.verifier';

@Module({
  providers: [Clock, NonceStore, KeyRegistry, SignatureVerifier, SignatureGuard],
  exports: [SignatureVerifier, SignatureGuard, KeyRegistry],
})
export class SignatureModule {}
