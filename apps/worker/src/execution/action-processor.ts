import { Injectable, Logger } from '@nestjs/common';
import { PunctualConfig } from '@app/config';
import { ActionEntity, ExecutionRepository } from '@app/database';
import { FulfillmentContext } from '@app/fulfillment';
import { ActionJobData, ActionQueues, Clock } from '@app/scheduling';
import { AttemptOutcome } from './attempt-outcome';
import { FulfillmentRegistry, RegisteredFulfillment } from './fulfillment.registry';

const MAX_NOTE_LENGTH = 2000;

/** What happened to one job, for logs and the admin UI's job result. */
export type JobOutcome = 'skipped' | 'completed' | 'next-occurrence' | 'retry' | 'failed' | 'no-action';

/** Claims an occurrence, runs its fulfillment, and records the outcome. The one path every job takes. */
@Injectable()
export class ActionProcessor {
  private readonly logger = new Logger(ActionProcessor.name);

  constructor(
    private readonly execution: ExecutionRepository,
    private readonly fulfillments: FulfillmentRegistry,
    private readonly outcome: AttemptOutcome,
    private readonly queues: ActionQueues,
    private readonly clock: Clock,
    private readonly config: PunctualConfig,
  ) {}

  async process(job: ActionJobData): Promise<JobOutcome> {
    const claimed = await this.execution.claim(job.actionId, job.revision, new Date(this.clock.now().getTime() - this.config.scheduling.claimLeaseMs));
    if (!claimed) {
      this.logger.debug(`Job for ${job.actionId} r${job.revision} found nothing to claim (stale, deleted or taken)`);
      return 'skipped';
    }
    const action = claimed.action;
    const registered = this.fulfillments.get(action.action);
    if (!registered) {
      await this.execution.recordNoAction(action, `No fulfillment module for action type ${action.action}`);
      return 'no-action';
    }
    return this.runAttempt(action, registered);
  }

  private async runAttempt(action: ActionEntity, registered: RegisteredFulfillment): Promise<JobOutcome> {
    let note: string | null;
    try {
      const result = await registered.fulfillment.fulfill(action.data, this.contextFor(action));
      note = result.note ? truncate(result.note) : null;
    } catch (error) {
      const message = truncate(error instanceof Error ? error.message : String(error));
      const next = this.outcome.afterFailure(action, error, registered.metadata.options, this.clock.now());
      const updated = await this.execution.recordFailure(action, message, next);
      if (updated && next.kind === 'retry') await this.queues.enqueue([updated]);
      this.logger.warn(`${action.action} ${action.id}:${action.occurrence} attempt ${action.retryCount + 1} failed: ${message}`);
      return next.kind;
    }
    const next = this.outcome.afterSuccess(action, this.clock.now());
    const updated = await this.execution.recordSuccess(action, note, next);
    if (updated && next.kind === 'next-occurrence') await this.queues.enqueue([updated]);
    return next.kind;
  }

  private contextFor(action: ActionEntity): FulfillmentContext {
    const idempotencyKey = `${action.id}:${action.occurrence}`;
    return {
      actionId: action.id,
      occurrence: action.occurrence,
      attempt: action.retryCount + 1,
      idempotencyKey,
      scheduledAt: action.executionTime,
      metadata: action.metadata,
      logger: new Logger(`${action.action} ${idempotencyKey}`),
    };
  }
}

function truncate(text: string): string {
  return text.length > MAX_NOTE_LENGTH ? `${text.slice(0, MAX_NOTE_LENGTH)}…` : text;
}
