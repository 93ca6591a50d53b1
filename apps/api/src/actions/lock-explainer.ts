import { Injectable } from '@nestjs/common';
import { PunctualConfig } from '@app/config';
import { ActionStatus, ActionsRepository, TERMINAL_STATUSES } from '@app/database';
import { ActionConflictError, ActionNotFoundError } from './action.errors';

/**
 * Says why a conditional change matched no row, after the fact: the change itself is one
 * statement, so the reason is read afterwards and may describe a state that just changed.
 */
@Injectable()
export class LockExplainer {
  constructor(
    private readonly actions: ActionsRepository,
    private readonly config: PunctualConfig,
  ) {}

  async explain(id: string, verb: 'changed' | 'deleted'): Promise<Error> {
    const action = await this.actions.findById(id);
    if (!action) return new ActionNotFoundError(id);
    if (action.status === ActionStatus.InProgress) {
      return new ActionConflictError(`Action ${id} is IN_PROGRESS (running now) and cannot be ${verb}`);
    }
    if (TERMINAL_STATUSES.includes(action.status)) {
      return new ActionConflictError(`Action ${id} is ${action.status}; finished actions can be deleted but not changed`);
    }
    return new ActionConflictError(
      `Action ${id} is due at ${action.executionTime.toISOString()}, inside the lock window of ${this.config.scheduling.lockWindowMs} ms; ` +
        `it can only be ${verb} while its executionTime is further ahead`,
    );
  }

  async explainRetry(id: string): Promise<Error> {
    const action = await this.actions.findById(id);
    if (!action) return new ActionNotFoundError(id);
    return new ActionConflictError(`Action ${id} is ${action.status}; only FAILED or NO_ACTION actions can be retried`);
  }
}
