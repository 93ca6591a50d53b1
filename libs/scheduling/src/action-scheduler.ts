import { Inject, Injectable } from '@nestjs/common';
import { ActionStatus, Transition, UnlockedGuard } from '@app/domain';
import { ActionEntity, ActionsRepository, IdempotentCreate, LIFECYCLE_STORE, LifecycleStorePort, NewAction } from '@app/database';
import { ACTION_ID, PunctualMetrics, annotateActiveSpan } from '@app/observability';
import { ACTION_QUEUES, ActionQueuesPort } from './action-queues.port';

/**
 * Every change that gives an action a new due time, written the one safe way: persist in
 * Postgres first, then queue. A crash between the two leaves a PENDING row without a job, which
 * the promoter's overdue sweep queues; the reverse (a job without a row) can never happen.
 */
@Injectable()
export class ActionScheduler {
  constructor(
    private readonly actions: ActionsRepository,
    @Inject(LIFECYCLE_STORE) private readonly store: LifecycleStorePort,
    @Inject(ACTION_QUEUES) private readonly queues: ActionQueuesPort,
    private readonly metrics: PunctualMetrics,
  ) {}

  /** Stores the actions and their creation history, all or nothing, then queues those due soon. */
  async createAll(actions: NewAction[]): Promise<ActionEntity[]> {
    const created = await this.store.createMany(actions);
    this.metrics.actionsCreated(created);
    await this.queues.enqueue(created);
    return created;
  }

  /** Stores one action (concurrent single creates share one statement), then queues it. */
  async create(action: NewAction): Promise<ActionEntity> {
    const created = await this.store.create(action);
    this.createdOne(created);
    await this.queues.enqueue([created]);
    return created;
  }

  /**
   * Like `create`, unless the key already created an action within 24 h: then returns that one,
   * queueing nothing, or refuses when that create had another body (`requestHash`).
   */
  async createIdempotent(apiKeyId: string, key: string, requestHash: string, action: NewAction): Promise<IdempotentCreate> {
    const result = await this.actions.createIdempotent(apiKeyId, key, action, requestHash);
    if (result.created) {
      this.createdOne(result.action);
      await this.queues.enqueue([result.action]);
    }
    return result;
  }

  /** Counts the new action, and names it on the request's span, whose trace its job will continue. */
  private createdOne(action: ActionEntity): void {
    this.metrics.actionsCreated([action]);
    annotateActiveSpan({ [ACTION_ID]: action.id });
  }

  /**
   * Persists a client's transition (patch, manual retry, cancel, deletion) if the action is still
   * as it was read, one of `guard.statuses` and due after `guard.dueAfter`. A new revision replaces
   * the queued job; a finished or deleted action keeps none. A transition that changes nothing
   * writes nothing. Returns null when the row changed meanwhile.
   */
  async apply(transition: Transition<ActionEntity>, guard: UnlockedGuard): Promise<ActionEntity | null> {
    const updated = await this.store.persist(transition, { kind: 'revision', ...guard });
    if (updated) this.metrics.occurrencesSkipped(updated.action, transition.skipped);
    const ended = transition.finished || transition.deleted;
    if (updated && (ended || updated.revision !== transition.before.revision)) {
      await this.queues.remove(transition.before);
      if (!ended) await this.queues.enqueue([updated]);
    }
    return updated;
  }

  /**
   * Records a running attempt's outcome while its claim still holds; a retry or the next
   * occurrence is then queued. Null when a takeover fenced the attempt off.
   */
  async recordOutcome(transition: Transition<ActionEntity>): Promise<ActionEntity | null> {
    const updated = await this.store.persist(transition, { kind: 'claim' });
    if (updated) this.metrics.occurrencesSkipped(updated.action, transition.skipped);
    if (updated?.status === ActionStatus.Pending) await this.queues.enqueue([updated]);
    return updated;
  }
}
