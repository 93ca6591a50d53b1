import { Injectable } from '@nestjs/common';
import { TenantScope } from '@app/database';
import { ActionStatus, TransitionRefusedError } from '@app/domain';
import { ActionNotFoundError } from '../errors/action.errors';
import { ActionsService } from './actions.service';

export interface RetryAllResult {
  /** Actions put back to PENDING. */
  retried: number;
  /** Actions that were FAILED when listed but changed (retried, deleted) by someone else before their turn. */
  skipped: number;
}

/** Listed and retried this many at a time: a page is one list query, and its retries run side by side. */
const PAGE_SIZE = 100;

/** The FAILED actions of a type, and retrying them all through the one manual-retry path. */
@Injectable()
export class DeadLettersService {
  constructor(private readonly actions: ActionsService) {}

  /**
   * Retries every action of `type` that is FAILED, each with `ActionsService.retry`, so each one
   * follows exactly the rules of a single retry. Pages move forward by (executionTime, id), and
   * a retried action leaves the FAILED filter, so one that fails again meanwhile is not retried twice.
   */
  async retryAll(type: string, scope: TenantScope): Promise<RetryAllResult> {
    const result: RetryAllResult = { retried: 0, skipped: 0 };
    let cursor: string | undefined;
    do {
      const page = await this.actions.list({ status: ActionStatus.Failed, action: type, limit: PAGE_SIZE, cursor }, scope);
      await Promise.all(page.items.map((action) => this.retryOne(action.id, scope, result)));
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    return result;
  }

  private async retryOne(id: string, scope: TenantScope, result: RetryAllResult): Promise<void> {
    try {
      await this.actions.retry(id, scope);
      result.retried += 1;
    } catch (error) {
      if (!(error instanceof TransitionRefusedError || error instanceof ActionNotFoundError)) throw error;
      result.skipped += 1;
    }
  }
}
