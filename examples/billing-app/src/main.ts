import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { billingConfig } from './billing-config';
import { startBillingApp } from './start-billing-app';

const config = billingConfig();
startBillingApp(config).then(
  (app) => {
    app.enableShutdownHooks();
    Logger.log(`Billing app on http://127.0.0.1:${config.port}, listening for ${config.listenUrl.split('://')[0]} messages`, 'Bootstrap');
  },
  (error: unknown) => {
    process.stderr.write(`Billing app failed to start: ${(error as Error).stack ?? String(error)}\n`);
    process.exit(1);
  },
);
