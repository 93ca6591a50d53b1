export * from './caller.decorator';
export * from './key-registry';
export * from './nonce.store';
export * from './signature.errors';
export * from './signature.guard';
export * from './signature.module';
export * from './signature.verifier';
export * from './signing-keys';
