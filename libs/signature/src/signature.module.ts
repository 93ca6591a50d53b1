import { Module } from '@nestjs/common';
import { Clock } from '@app/domain';
import { NonceStore } from './nonce.store';
import { SignatureGuard } from './signature.guard';
import { SignatureVerifier } from './signature.verifier';

@Module({
  providers: [Clock, NonceStore, SignatureVerifier, SignatureGuard],
  exports: [SignatureVerifier, SignatureGuard],
})
export class SignatureModule {}
