import { PunctualConfig } from '@app/config';
import { ActionEntity, Frequency, MisfirePolicy } from '@app/database';
import { PermanentFulfillmentError } from '@app/fulfillment';
import { AttemptOutcome } from './attempt-outcome';

const config = { scheduling: { maxRetries: 2, backoff: { kind: 'fixed-list', delaysMs: [1000, 5000] } } } as unknown as PunctualConfig;
const outcome = new AttemptOutcome(config);
const now = new Date('2025-03-01T12:00:00.000Z');

function action(overrides: Partial<ActionEntity> = {}): ActionEntity {
  const executionTime = overrides.executionTime ?? new Date('2025-03-01T11:59:00.000Z');
  return {
    repeat: false,
    frequency: null,
    executionRemainder: null,
    retryCount: 0,
    misfirePolicy: MisfirePolicy.RunOnce,
    executionTime,
    scheduleAnchor: executionTime,
    ...overrides,
  } as ActionEntity;
}

describe('AttemptOutcome', () => {
  describe('after success', () => {
    it('completes a one-off action', () => {
      expect(outcome.afterSuccess(action(), now)).toEqual({ kind: 'completed' });
    });

    it('completes a repeating action on its last execution', () => {
      expect(outcome.afterSuccess(action({ repeat: true, frequency: Frequency.Daily, executionRemainder: 1 }), now)).toEqual({ kind: 'completed' });
    });

    it('moves a repeating action one step from its scheduled time, not from now', () => {
      const next = outcome.afterSuccess(action({ repeat: true, frequency: Frequency.Hourly, executionRemainder: 3 }), now);
      expect(next).toEqual({ kind: 'next-occurrence', executionTime: new Date('2025-03-01T12:59:00.000Z') });
    });

    it('RUN_ALL runs the first missed occurrence next', () => {
      const late = action({ repeat: true, frequency: Frequency.Hourly, executionRemainder: 10, misfirePolicy: MisfirePolicy.RunAll, executionTime: new Date('2025-03-01T07:30:00.000Z') });
      expect(outcome.afterSuccess(late, now)).toMatchObject({ kind: 'next-occurrence', executionTime: new Date('2025-03-01T08:30:00.000Z') });
    });

    it('SKIP continues with the first scheduled time after now', () => {
      const late = action({ repeat: true, frequency: Frequency.Hourly, executionRemainder: 10, misfirePolicy: MisfirePolicy.Skip, executionTime: new Date('2025-03-01T07:30:00.000Z') });
      expect(outcome.afterSuccess(late, now)).toMatchObject({ kind: 'next-occurrence', executionTime: new Date('2025-03-01T12:30:00.000Z') });
    });

    it('RUN_ONCE (default) after missed occurrences runs one catch-up at the latest missed time', () => {
      const late = action({ repeat: true, frequency: Frequency.Hourly, executionRemainder: 10, executionTime: new Date('2025-03-01T07:30:00.000Z') });
      const next = outcome.afterSuccess(late, now);
      expect(next).toMatchObject({ kind: 'next-occurrence', executionTime: new Date('2025-03-01T11:30:00.000Z') });
      expect(next.kind === 'next-occurrence' && next.catchUpNote).toMatch(/one catch-up runs now/);
    });
  });

  describe('after failure', () => {
    it('retries after the policy delay while retries remain', () => {
      expect(outcome.afterFailure(action(), new Error('x'), {}, now)).toEqual({ kind: 'retry', dueAt: new Date(now.getTime() + 1000) });
      expect(outcome.afterFailure(action({ retryCount: 1 }), new Error('x'), {}, now)).toEqual({ kind: 'retry', dueAt: new Date(now.getTime() + 5000) });
    });

    it('fails once the attempts reach 1 + MAX_RETRIES', () => {
      expect(outcome.afterFailure(action({ retryCount: 2 }), new Error('x'), {}, now)).toEqual({ kind: 'failed' });
    });

    it('fails at once on a permanent error', () => {
      expect(outcome.afterFailure(action(), new PermanentFulfillmentError('gone'), {}, now)).toEqual({ kind: 'failed' });
    });

    it('uses the type’s own retry settings', () => {
      expect(outcome.afterFailure(action({ retryCount: 2 }), new Error('x'), { maxRetries: 5, backoffDelaysMs: [42] }, now)).toEqual({
        kind: 'retry',
        dueAt: new Date(now.getTime() + 42),
      });
    });
  });
});
