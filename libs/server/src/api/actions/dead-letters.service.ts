import { Injectable } from '@nestjs/common';
import { EVERY_TENANT, TenantScope } from '@app/database';
import { ActionStatus, TransitionRefusedError } from '@app/domain';
import { ActionNotFoundError } from '../errors/action.errors';
import { QuotaExceededError } from '../errors/quota.errors';
import { ActionCommands } from './action-commands.service';
import { ActionQueries } from './action-queries.service';

export interface RetryAllResult {
  /** Actions put back to PENDING. */
  retried: number;
  /** Actions that were listed but changed (retried, deleted) by someone else before their turn. */
  skipped: number;
  /** Actions left as they were (FAILED or NO_ACTION) because their tenant had no place left among its active actions (`maxActiveActions`). */
  overQuota: number;
}

/** Listed and retried this many at a time: a page is one list query, and its retries run side by side. */
const PAGE_SIZE = 100;

/** The FAILED or NO_ACTION actions of a type, and retrying them all through the one manual-retry path. */
@Injectable()
export class DeadLettersService {
  constructor(
    private readonly queries: ActionQueries,
    private readonly commands: ActionCommands,
  ) {}

  /**
   * Retries every action of `type` that is `status` (FAILED or NO_ACTION) in `scope`, each with `ActionCommands.control`, so
   * each one follows exactly the rules of a single retry in the console: it needs a place among
   * its tenant's active actions, and, being the operator's, counts against no tenant's rate.
   * Pages move forward by (executionTime, id), and a retried action leaves the status filter, so
   * one that ends so again meanwhile is not retried twice; one left over its quota is passed.
   */
  async retryAll(type: string, status: ActionStatus.Failed | ActionStatus.NoAction, scope: TenantScope): Promise<RetryAllResult> {
    const result: RetryAllResult = { retried: 0, skipped: 0, overQuota: 0 };
    let cursor: string | undefined;
    do {
      const page = await this.queries.list({ status, action: type, limit: PAGE_SIZE, cursor }, scope);
      await Promise.all(page.items.map((action) => this.retryOne(action.id, result)));
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    return result;
  }

  /** Retries in the operator's scope: the listing already limited the actions to the tenant chosen. */
  private async retryOne(id: string, result: RetryAllResult): Promise<void> {
    try {
      await this.commands.control(id, EVERY_TENANT, { type: 'retriedManually' });
      result.retried += 1;
    } catch (error) {
      if (error instanceof QuotaExceededError) result.overQuota += 1;
      else if (error instanceof TransitionRefusedError || error instanceof ActionNotFoundError) result.skipped += 1;
      else throw error;
    }
  }
}
