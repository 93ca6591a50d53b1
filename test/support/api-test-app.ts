import { INestApplication } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { DataSource } from 'typeorm';
import { ActionTypeDefinition, BUILT_IN_ACTION_TYPES } from '@app/fulfillment';
import { ApiModule } from '../../apps/api/src/api.module';
import { configureApiApp } from '../../apps/api/src/http/configure-api-app';
import { SignedClient } from '@app/testing';
import { emptyTables } from './fixtures';
import { emptyQueues } from './queue-state';
import { withEnv } from './with-env';

export interface ApiTestApp {
  app: INestApplication;
  client: SignedClient;
  db: DataSource;
  close(): Promise<void>;
}

/** Starts the real API module in this process on a free port, configured exactly as main.ts does. */
export function startApiApp(
  actionTypes: readonly ActionTypeDefinition[] = BUILT_IN_ACTION_TYPES,
  env?: Record<string, string>,
): Promise<ApiTestApp> {
  return withEnv(env, () => boot(actionTypes));
}

async function boot(actionTypes: readonly ActionTypeDefinition[]): Promise<ApiTestApp> {
  const moduleRef = await Test.createTestingModule({ imports: [ApiModule.forRoot(actionTypes)] }).compile();
  const app = moduleRef.createNestApplication({ bodyParser: false, logger: ['error', 'warn'] });
  configureApiApp(app);
  await app.listen(0, '127.0.0.1');
  const address = app.getHttpServer().address() as { port: number };
  return {
    app,
    client: new SignedClient(`http://127.0.0.1:${address.port}`),
    db: app.get(DataSource),
    close: () => app.close(),
  };
}

/** Starts the API on empty tables and empty queues, so a spec sees only what it creates. */
export async function startCleanApiApp(
  actionTypes: readonly ActionTypeDefinition[] = BUILT_IN_ACTION_TYPES,
  env?: Record<string, string>,
): Promise<ApiTestApp> {
  const api = await startApiApp(actionTypes, env);
  await emptyTables(api.db);
  await emptyQueues(api.app);
  return api;
}
