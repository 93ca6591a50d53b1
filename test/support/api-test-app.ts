import { INestApplication, Type } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { DataSource } from 'typeorm';
import { PunctualClient, UntypedActionTypes } from '@punctual/client';
import { PunctualConfig } from '@app/config';
import { ActionTypeDefinition } from '@punctual/sdk';
import { BUILT_IN_ACTION_TYPES } from '@app/built-in-actions';
import { TEST_KEY, TestHttp, testHttp } from '@app/testing';
import { ApiModule, configureApiApp, connectGrpc, connectRpc } from '@app/server';
import { emptyTables } from './fixtures';
import { recordAnswers } from './openapi-answers';
import { emptyQueues } from './queue-state';
import { withEnv } from './with-env';

export interface ApiTestApp {
  app: INestApplication;
  /** Raw signed HTTP with the test key: status, headers and body as they came. */
  client: TestHttp;
  db: DataSource;
  /** A client over RPC on the API's transport (`RPC_TRANSPORT_URL`), signing with the test key; closed with the app. Untyped: specs send what the API must judge. */
  rpc(): PunctualClient<UntypedActionTypes>;
  close(): Promise<void>;
}

/** Providers replaced in an API: the `HostResolver` seam, so that a name resolves (or never does) as a spec wants. */
export type ApiOverrides = readonly { provide: Type; useValue: unknown }[];

/** Starts the real API module in this process on a free port, configured exactly as main.ts does, message patterns included. */
export function startApiApp(
  actionTypes: readonly ActionTypeDefinition[] = BUILT_IN_ACTION_TYPES,
  env?: Record<string, string>,
  overrides: ApiOverrides = [],
): Promise<ApiTestApp> {
  return withEnv(env, () => boot(actionTypes, overrides));
}

async function boot(actionTypes: readonly ActionTypeDefinition[], overrides: ApiOverrides): Promise<ApiTestApp> {
  const builder = Test.createTestingModule({ imports: [ApiModule.forRoot(actionTypes)] });
  for (const { provide, useValue } of overrides) builder.overrideProvider(provide).useValue(useValue);
  const moduleRef = await builder.compile();
  const app = moduleRef.createNestApplication({ bodyParser: false, logger: ['error', 'warn'] });
  configureApiApp(app);
  await connectRpc(app);
  await connectGrpc(app);
  await app.listen(0, '127.0.0.1');
  const address = app.getHttpServer().address() as { port: number };
  const client = testHttp(`http://127.0.0.1:${address.port}`);
  recordAnswers(app.getHttpServer(), (await client.get('/docs-json')).body);
  const transport = app.get(PunctualConfig).rpc.transport;
  let rpc: PunctualClient<UntypedActionTypes> | undefined;
  return {
    app,
    client,
    db: app.get(DataSource),
    rpc: () => {
      if (!transport) throw new Error('This API runs with RPC_TRANSPORT_URL=off');
      rpc ??= PunctualClient.overRpc<UntypedActionTypes>({ transport, ...TEST_KEY, timeoutMs: 5_000 });
      return rpc;
    },
    close: async () => {
      await rpc?.close();
      await app.close();
    },
  };
}

/** Starts the API on empty tables and empty queues, so a spec sees only what it creates. */
export async function startCleanApiApp(
  actionTypes: readonly ActionTypeDefinition[] = BUILT_IN_ACTION_TYPES,
  env?: Record<string, string>,
  overrides: ApiOverrides = [],
): Promise<ApiTestApp> {
  const api = await startApiApp(actionTypes, env, overrides);
  await emptyTables(api.db);
  // What earlier specs' stopped workers knew would count towards UNKNOWN_TYPE_GRACE_MS here.
  await api.db.query('DELETE FROM workers WHERE live_until <= now()');
  await emptyQueues(api.app);
  return api;
}
