import { Inject, Injectable, Logger } from '@nestjs/common';
import { setTimeout as sleep } from 'node:timers/promises';
import { PunctualConfig } from '@app/config';
import { ActionEntity, CLAIM_LEASES, ClaimLeasesPort, LIFECYCLE_STORE, LifecycleStorePort, isDatabaseUnavailable } from '@app/database';
import {
  ActionStatus,
  AttemptOutcome,
  Clock,
  LifecycleEvent,
  RetryPolicy,
  Transition,
  attemptNumber,
  effectiveRetryPolicy,
  idempotencyKeyOf,
  transition,
} from '@app/domain';
import { FulfillmentContext, PermanentFulfillmentError, RetryLaterError, boundedRetryDelay } from '@punctual/sdk';
import { ACTION_ID, ACTION_TYPE, ATTEMPT, FieldLogger, OCCURRENCE, OUTCOME, PunctualMetrics, inSpan } from '@app/observability';
import { ActionJobData, ActionScheduler } from '@app/scheduling';
import { dataInstance } from '@app/action-types';
import { AttemptSigner } from '@app/signature';
import { failureMessage } from './claim-lease';
import { FulfillmentRegistry, RegisteredFulfillment } from './fulfillment.registry';
import { NotDueYetError } from './not-due-yet.error';
import { RunningAttempts } from './running-attempts';

/** What happened to one job, for logs and the admin UI's job result. */
export type JobOutcome = 'skipped' | 'calendar-date' | 'fenced' | 'completed' | 'next-occurrence' | 'retry' | 'failed' | 'canceled';

/** Claims an occurrence, runs its fulfillment, and records the outcome the lifecycle computes. The one path every job takes. */
@Injectable()
export class ActionProcessor {
  private readonly logger = new Logger(ActionProcessor.name);

  constructor(
    @Inject(LIFECYCLE_STORE) private readonly store: LifecycleStorePort,
    @Inject(CLAIM_LEASES) private readonly claims: ClaimLeasesPort,
    private readonly scheduler: ActionScheduler,
    private readonly fulfillments: FulfillmentRegistry,
    private readonly clock: Clock,
    private readonly config: PunctualConfig,
    private readonly metrics: PunctualMetrics,
    private readonly attempts: RunningAttempts,
    private readonly signer: AttemptSigner,
  ) {}

  /**
   * Runs a job of the queue of `type`, one of the types this worker serves: only an action of that
   * type is claimed, so a worker never meets an action whose fulfillment it lacks (whether such an
   * action ends NO_ACTION is the promoter's judgement, over every live worker). With tracing on,
   * claim, fulfillment and outcome are spans of the job's trace.
   * @throws NotDueYetError when the job came too early; the caller runs it again later.
   */
  async process(type: string, job: ActionJobData): Promise<JobOutcome> {
    const registered = this.fulfillments.get(type);
    if (!registered) throw new Error(`This worker does not serve action type ${type}`);
    const claim = await inSpan('punctual.claim', { [ACTION_ID]: job.actionId }, () =>
      this.store.claim(job.actionId, job.revision, type, this.config.scheduling.claimLeaseMs),
    );
    if (claim.kind === 'not-due') throw new NotDueYetError(claim.dueInMs);
    if (claim.kind === 'calendar-date') return this.skipCalendarDate(claim.action);
    if (claim.kind === 'none') {
      this.logger.debug(`Job for ${job.actionId} r${job.revision} found nothing of type ${type} to claim (stale, deleted, finished or retyped)`);
      return 'skipped';
    }
    const policy = effectiveRetryPolicy(this.config.scheduling, registered.metadata.options, claim.action.retryPolicy);
    let action = claim.action;
    if (claim.takenOver) {
      // The previous attempt's worker died mid-run: that attempt counts as failed before this one starts.
      const resumed = await this.record(action, { type: 'interrupted', retryPolicy: policy }, 'failed', this.whileClaimLasts());
      if (resumed?.updated.status !== ActionStatus.InProgress) return resumed ? outcomeName(resumed.outcome) : 'fenced';
      action = resumed.updated;
    }
    return this.runAttempt(action, registered, policy, claim.dueAt);
  }

  /** The occurrence is not run: the action moves on to its next one, unless a client changed it meanwhile (its own job then decides). */
  private async skipCalendarDate(action: ActionEntity): Promise<JobOutcome> {
    const skipped = transition(action, { type: 'calendarDate', now: this.clock.now(), catchUp: this.config.scheduling.catchUp });
    await this.scheduler.apply(skipped, { statuses: [ActionStatus.Pending] });
    return 'calendar-date';
  }

  /** `dueAt`: when the attempt was due or became runnable, whichever was later (the claim's), which its firing lag counts from. */
  private async runAttempt(action: ActionEntity, registered: RegisteredFulfillment, policy: RetryPolicy, dueAt: Date): Promise<JobOutcome> {
    this.metrics.attemptStarted(action.action, this.clock.now().getTime() - dueAt.getTime());
    const claim = { name: `${idempotencyKeyOf(action)} attempt ${attemptNumber(action)}`, renew: (leaseMs: number) => this.claims.renew(action, leaseMs) };
    const lease = this.attempts.hold(claim, this.logFor(action));
    try {
      let event: LifecycleEvent;
      try {
        const result = await inSpan('punctual.fulfill', spanAttributes(action), () =>
          registered.fulfillment.fulfill(dataInstance(registered.metadata.definition.dataClass, action.data), this.contextFor(action, lease.signal)),
        );
        event = { type: 'succeeded', now: this.clock.now(), note: result.note ?? null, catchUp: this.config.scheduling.catchUp };
      } catch (error) {
        const message = failureMessage(error, lease.signal);
        event = {
          type: 'failed',
          now: this.clock.now(),
          error: message,
          permanent: error instanceof PermanentFulfillmentError,
          retryPolicy: policy,
          // Bounded again: a fulfillment can overwrite `delayMs` after the constructor bounded it.
          ...(error instanceof RetryLaterError && { retryAfterMs: boundedRetryDelay(error.delayMs) ?? undefined }),
        };
        this.logFor(action).warn(`${action.action} ${idempotencyKeyOf(action)} attempt ${attemptNumber(action)} failed: ${message}`);
      }
      const recorded = await this.record(action, event, event.type === 'succeeded' ? 'succeeded' : 'failed', lease.signal);
      return recorded ? outcomeName(recorded.outcome) : 'fenced';
    } finally {
      lease.release();
    }
  }

  /**
   * A write's bound when no fulfillment ran: the claim just taken lasts a lease without renewals,
   * after which the occurrence is another worker's to take over, so giving up loses nothing.
   */
  private whileClaimLasts(): AbortSignal {
    return AbortSignal.timeout(this.config.scheduling.claimLeaseMs);
  }

  /**
   * Writes what the lifecycle makes of `event` for the claimed `action`, retrying while Postgres is
   * unreachable until `giveUp` aborts (see `write`). When its owner asked to cancel it, or to skip
   * occurrences, since it was read, the lifecycle decides again from the row as it is now. Null when
   * a takeover fenced the attempt off. A written outcome counts its attempt; a fenced one does not
   * (the takeover counted it).
   */
  private async record(
    action: ActionEntity,
    event: LifecycleEvent,
    attempt: AttemptOutcome,
    giveUp: AbortSignal,
  ): Promise<{ outcome: Transition<ActionEntity>; updated: ActionEntity } | null> {
    for (let current = action; ;) {
      const outcome = transition(current, event);
      const updated = await inSpan('punctual.record', { ...spanAttributes(action), [OUTCOME]: attempt }, () => this.write(outcome, giveUp));
      if (updated) {
        this.metrics.attemptEnded(action, attempt);
        return { outcome, updated };
      }
      const now = await this.claims.claimed(action.id, action.claimToken!);
      if (!now || !ownerAskedMore(current, now)) {
        this.logFor(action).warn(`Outcome of ${idempotencyKeyOf(action)} refused: another worker took the attempt over`);
        return null;
      }
      current = now;
    }
  }

  /**
   * Retries while Postgres is unreachable, until `giveUp` aborts. After a fulfillment ran, that is
   * its claim's signal: while the claim may still hold, a failed write must never make it run again.
   * When none ran, it is the claim's length (`whileClaimLasts`). Given up, the job fails and the
   * occurrence heals from Postgres once it answers: the overdue sweep queues it again and, its
   * claim lapsed, a worker takes it over.
   */
  private async write(outcome: Transition<ActionEntity>, giveUp: AbortSignal): Promise<ActionEntity | null> {
    for (let retry = 0; ; retry += 1) {
      try {
        return await this.scheduler.recordOutcome(outcome);
      } catch (error) {
        if (!isDatabaseUnavailable(error)) throw error;
        if (giveUp.aborted) {
          this.logFor(outcome.before).warn(
            `Gave up recording ${idempotencyKeyOf(outcome.before)} after ${retry + 1} tries, Postgres unreachable (${(error as Error).message}): ` +
              'the job fails, and the occurrence is taken over once Postgres answers and its claim lapsed',
          );
          throw error;
        }
        await sleep(Math.min(100 * 2 ** retry, 2000));
      }
    }
  }

  private contextFor(action: ActionEntity, signal: AbortSignal): FulfillmentContext {
    const idempotencyKey = idempotencyKeyOf(action);
    return {
      actionId: action.id,
      occurrence: action.occurrence,
      attempt: attemptNumber(action),
      idempotencyKey,
      scheduledAt: action.executionTime,
      tenantId: action.tenantId,
      signingKeyId: action.dataKeyId,
      signal,
      sign: (body) => this.signer.sign({ tenantId: action.tenantId, signingKeyId: action.dataKeyId, idempotencyKey }, body),
      metadata: action.metadata,
      logger: this.logFor(action, `${action.action} ${idempotencyKey}`),
    };
  }

  /** A logger whose JSON lines name the attempt: action id, occurrence and attempt number. */
  private logFor(action: ActionEntity, context = ActionProcessor.name): FieldLogger {
    return FieldLogger.for(this.config, context, { actionId: action.id, occurrence: action.occurrence, attempt: attemptNumber(action) });
  }
}

/** Whether a cancel or skip request reached the claimed action since `read`: the outcome must then be decided again. */
function ownerAskedMore(read: ActionEntity, now: ActionEntity): boolean {
  return now.cancelRequestedAt?.getTime() !== read.cancelRequestedAt?.getTime() || now.skipPending !== read.skipPending;
}

function spanAttributes(action: ActionEntity) {
  return { [ACTION_ID]: action.id, [ACTION_TYPE]: action.action, [OCCURRENCE]: action.occurrence, [ATTEMPT]: attemptNumber(action) };
}

function outcomeName(outcome: Transition): JobOutcome {
  switch (outcome.after.status) {
    case ActionStatus.Completed:
      return 'completed';
    case ActionStatus.Failed:
      return 'failed';
    case ActionStatus.Canceled:
      return 'canceled';
    default:
      return outcome.after.occurrence !== outcome.before.occurrence ? 'next-occurrence' : 'retry';
  }
}
