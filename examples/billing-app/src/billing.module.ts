import { DynamicModule, Module } from '@nestjs/common';
import { AccountsStore } from './accounts.store';
import { BILLING_CONFIG, BillingConfig } from './billing-config';
import { DowngradeHandler } from './downgrade.handler';
import { TrialsController } from './trials.controller';
import { TrialsService } from './trials.service';

@Module({})
export class BillingModule {
  static forRoot(config: BillingConfig): DynamicModule {
    return {
      module: BillingModule,
      controllers: [TrialsController, DowngradeHandler],
      providers: [{ provide: BILLING_CONFIG, useValue: config }, AccountsStore, TrialsService],
    };
  }
}
