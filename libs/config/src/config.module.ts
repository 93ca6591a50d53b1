import { Global, Module } from '@nestjs/common';
import { loadConfig } from './load-config';
import { PunctualConfig } from './punctual-config';

/** Validates the environment once at boot and provides the typed `PunctualConfig` everywhere. */
@Global()
@Module({
  providers: [{ provide: PunctualConfig, useFactory: () => loadConfig() }],
  exports: [PunctualConfig],
})
export class ConfigModule {}
