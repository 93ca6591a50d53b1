// `@punctual/server`: Punctual's API and worker as functions, for a project that adds its own
// action types without copying or editing Punctual's code.
import { Type } from '@nestjs/common';
import { BUILT_IN_ACTION_TYPES, BUILT_IN_FULFILLMENT_MODULES } from '@app/built-in-actions';
import { loadDatabaseUrl, loadEnvFile } from '@app/config';
import { describeDatabase, migrate } from '@app/database';
import { ActionTypeDefinition } from '@punctual/sdk';
import { runApi as runApiWithTypes } from './api/run-api';
import { runWorker as runWorkerWithTypes } from './worker/run-worker';

/**
 * The one way a fulfillment of a project's own should call a URL, under the egress rules the built-in
 * types keep: import `OutboundModule` into the fulfillment's module and inject `OutboundClient`. Its
 * policy is the deployment's (`OUTBOUND_ALLOWED_HOSTS`, read from the environment by `runWorker`),
 * the same one HTTP_REQUEST calls under. `PermanentOutboundError` (a refused destination, a URL or
 * header that cannot be sent) is a call no retry can fix; any other `OutboundError` may succeed later.
 */
export {
  DestinationNotAllowedError,
  InvalidOutboundRequestError,
  MAX_RESPONSE_BYTES,
  OutboundAbortedError,
  OutboundClient,
  OutboundError,
  OutboundModule,
  type OutboundRequest,
  type OutboundResponse,
  OutboundTimeoutError,
  PermanentOutboundError,
  ResponseTooLargeError,
} from '@app/outbound';

/** What a project adds to the built-in action types; pass the same to the API and the worker. */
export interface PunctualServerOptions {
  /** Action types beside HTTP_REQUEST, SEND_NOTIFICATION and MESSAGE (from `defineActionType`). */
  readonly actionTypes?: readonly ActionTypeDefinition[];
  /** Nest modules that provide the `@Fulfillment` classes of those types (the worker loads them; the API ignores them). */
  readonly fulfillmentModules?: readonly Type[];
}

/** Starts an API process, configured from the environment, accepting the built-in types and the given ones; exits 1 with the reason when it cannot start. */
export function runApi(options: PunctualServerOptions = {}): void {
  runApiWithTypes([...BUILT_IN_ACTION_TYPES, ...(options.actionTypes ?? [])]);
}

/** Starts a worker process, configured from the environment, running the built-in types and the given ones; exits 1 with the reason when it cannot start. */
export function runWorker(options: PunctualServerOptions = {}): void {
  runWorkerWithTypes({
    actionTypes: [...BUILT_IN_ACTION_TYPES, ...(options.actionTypes ?? [])],
    fulfillmentModules: [...BUILT_IN_FULFILLMENT_MODULES, ...(options.fulfillmentModules ?? [])],
  });
}

/** What `migrateDatabase` did: where (`host:port/name`, never credentials) and which migrations it applied. */
export interface MigrationOutcome {
  readonly database: string;
  readonly applied: string[];
}

/**
 * Applies every pending migration (creating the database when it does not exist). Without
 * `databaseUrl` it migrates the database `runApi` and `runWorker` would use: `DATABASE_URL` from
 * the environment, else from `.env` in the working directory, else the documented default; a
 * malformed one rejects with a message naming the variable. Run it before the first start and
 * after each upgrade. A function of its own, so the package's declarations expose no database internals.
 */
export async function migrateDatabase(databaseUrl?: string): Promise<MigrationOutcome> {
  if (databaseUrl === undefined) loadEnvFile();
  const url = databaseUrl ?? loadDatabaseUrl();
  return { database: describeDatabase(url), applied: await migrate(url) };
}
