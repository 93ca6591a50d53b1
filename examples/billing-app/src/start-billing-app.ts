import { INestApplication, LogLevel } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { MicroserviceOptions } from '@nestjs/microservices';
import { microserviceOptions } from '@punctual/client';
import { BillingConfig } from './billing-config';
import { BillingModule } from './billing.module';

/** The billing app: HTTP for its users, and a microservice on `listenUrl` for the messages Punctual sends. */
export async function startBillingApp(config: BillingConfig, logger: LogLevel[] = ['log', 'warn', 'error']): Promise<INestApplication> {
  const app = await NestFactory.create(BillingModule.forRoot(config), { logger });
  app.connectMicroservice<MicroserviceOptions>(microserviceOptions(config.listenUrl) as MicroserviceOptions);
  await app.startAllMicroservices();
  await app.listen(config.port, '127.0.0.1');
  return app;
}
