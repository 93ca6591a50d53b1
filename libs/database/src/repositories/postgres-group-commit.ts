import { DEFAULT_MAX_BATCH, GroupCommit } from '@app/runtime';
import { isDatabaseUnavailable, isStatementCancelled } from '../database-unavailable';

/** Whether a failed batch's items are worth writing one by one: not after an outage or a statement timeout, which would only repeat, item after item. */
const retriedAloneInPostgres = (error: unknown) => !isDatabaseUnavailable(error) && !isStatementCancelled(error);

/** Concurrent Postgres writes of one kind, batched (see `GroupCommit`); a failed batch is retried item by item unless Postgres itself failed. */
export function postgresGroupCommit<I, O>(write: (items: I[]) => Promise<O[]>): GroupCommit<I, O> {
  return new GroupCommit(write, DEFAULT_MAX_BATCH, retriedAloneInPostgres);
}
