import { Injectable } from '@nestjs/common';
import { PunctualConfig } from '@app/config';
import { ActionEntity, AfterFailure, AfterSuccess, MisfirePolicy } from '@app/database';
import { FulfillmentOptions, PermanentFulfillmentError } from '@app/fulfillment';
import { firstOccurrenceAfter, latestOccurrenceNotAfter, nextOccurrence, nextRetryDelay, retryPolicyFor } from '@app/scheduling';

/** Decides where an occurrence goes after an attempt: pure rules, no I/O. */
@Injectable()
export class AttemptOutcome {
  constructor(private readonly config: PunctualConfig) {}

  /**
   * A repeating action with executions left moves to its next scheduled time, one step from
   * the scheduled (not the actual) time. When that time has already passed (downtime, a late
   * create), the action's misfire policy decides what comes next.
   */
  afterSuccess(action: ActionEntity, now: Date): AfterSuccess {
    const remaining = (action.executionRemainder ?? 1) - 1;
    if (!action.repeat || !action.frequency || remaining < 1) return { kind: 'completed' };
    const next = nextOccurrence(action.executionTime, action.frequency, action.scheduleAnchor);
    if (next > now) return { kind: 'next-occurrence', executionTime: next };
    switch (action.misfirePolicy) {
      case MisfirePolicy.RunAll:
        return { kind: 'next-occurrence', executionTime: next, catchUpNote: `missed occurrence ${next.toISOString()} runs now (RUN_ALL)` };
      case MisfirePolicy.Skip: {
        const after = firstOccurrenceAfter(next, action.frequency, now, action.scheduleAnchor);
        return { kind: 'next-occurrence', executionTime: after, catchUpNote: `missed occurrences before ${after.toISOString()} skipped (SKIP)` };
      }
      default: {
        const latestMissed = latestOccurrenceNotAfter(next, action.frequency, now, action.scheduleAnchor);
        return {
          kind: 'next-occurrence',
          executionTime: latestMissed,
          catchUpNote: `missed occurrences up to ${latestMissed.toISOString()}: one catch-up runs now (RUN_ONCE)`,
        };
      }
    }
  }

  afterFailure(action: ActionEntity, error: unknown, options: FulfillmentOptions, now: Date): AfterFailure {
    const policy = retryPolicyFor(options, this.config);
    const failedAttempts = action.retryCount + 1;
    if (error instanceof PermanentFulfillmentError || failedAttempts > policy.maxRetries) return { kind: 'failed' };
    return { kind: 'retry', dueAt: new Date(now.getTime() + nextRetryDelay(policy.backoff, failedAttempts)) };
  }
}
