import { InvalidCronError } from '../schedule/cron-expression';
import { DstPolicy } from '../schedule/dst-policy';
import { shortestRepeatInterval } from '../schedule/repeat-interval';
import { Schedule, firstCronTimeAtOrAfter } from '../schedule/schedule';
import { isKnownTimeZone } from '../schedule/zoned-time';
import { ActionState } from './action-state';
import { InvalidChangeError } from './lifecycle.errors';

/** A repeating action's schedule; null for a one-off action. */
export function scheduleOf(state: Pick<ActionState, 'repeat' | 'frequency' | 'cron' | 'timezone' | 'scheduleAnchor' | 'dstPolicy'>): Schedule | null {
  if (!state.repeat) return null;
  return {
    frequency: state.frequency,
    cron: state.cron,
    timezone: state.timezone ?? 'UTC',
    anchor: state.scheduleAnchor,
    dstPolicy: state.dstPolicy ?? undefined,
  };
}

/**
 * The rules that make a schedule runnable, for a new action and after every change, each
 * refusal naming the field: a repeating action has a frequency (with executionRemainder) or a
 * cron expression, not both; cron only with repeat; a known zone; an endAt not before the first
 * occurrence.
 */
export function assertRunnableSchedule(state: ActionState): void {
  if (state.timezone !== null) assertKnownZone(state.timezone);
  if (!state.repeat) {
    if (state.cron !== null) throw new InvalidChangeError('cron needs repeat: true');
    if (state.dstPolicy !== null) throw new InvalidChangeError('dstPolicy needs repeat: true: a one-off action has no schedule to meet a clock change');
    if (state.calendar !== null) throw new InvalidChangeError('calendar needs repeat: true: a one-off action has no occurrences to skip');
    return;
  }
  if (state.frequency && state.cron) throw new InvalidChangeError('give either frequency or cron for a repeating action, not both');
  if (!state.frequency && !state.cron) throw new InvalidChangeError('frequency or cron is required when repeat is true');
  if (state.frequency && !state.executionRemainder)
    throw new InvalidChangeError('executionRemainder must be an integer ≥ 1 when repeat is true with a frequency');
  if (state.endAt && state.endAt < state.executionTime) {
    throw new InvalidChangeError(`endAt (${state.endAt.toISOString()}) is before the first occurrence (${state.executionTime.toISOString()})`);
  }
}

/**
 * A repeating schedule whose occurrences can come closer than `minMs` (MIN_REPEAT_INTERVAL_MS) is
 * refused: one action must not be able to run many times a second.
 */
export function assertRepeatInterval(state: ActionState, minMs: number): void {
  const schedule = scheduleOf(state);
  if (!schedule) return;
  const shortest = shortestRepeatInterval(schedule);
  if (shortest >= minMs) return;
  const what = schedule.cron ? `cron "${schedule.cron}"` : `frequency ${schedule.frequency}`;
  throw new InvalidChangeError(`${what} runs as often as every ${shortest} ms; occurrences must be at least ${minMs} ms apart (MIN_REPEAT_INTERVAL_MS)`);
}

/** A cron action's occurrence at or after `from`; refuses an expression that is invalid or never matches again. */
export function firstCronOccurrence(cron: string, timezone: string, from: Date, dstPolicy: DstPolicy): Date {
  assertKnownZone(timezone);
  try {
    const first = firstCronTimeAtOrAfter(cron, timezone, from, dstPolicy);
    if (!first) throw new InvalidChangeError(`cron "${cron}" never matches a time after ${from.toISOString()}`);
    return first;
  } catch (error) {
    if (error instanceof InvalidCronError) throw new InvalidChangeError(error.message);
    throw error;
  }
}

function assertKnownZone(zone: string): void {
  if (!isKnownTimeZone(zone)) throw new InvalidChangeError(`timezone "${zone}" is not a known IANA time zone, e.g. Europe/Berlin`);
}
