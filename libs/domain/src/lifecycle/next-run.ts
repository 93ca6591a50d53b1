import { MisfirePolicy } from '../action-vocabulary';
import { Schedule, firstOccurrenceAfter, latestOccurrenceNotAfter, nextOccurrence } from '../schedule/schedule';
import type { ActionState } from './action-state';
import { CatchUpPolicy, firstCaughtUp, nextCatchUpAt } from './catch-up';
import { jittered } from './jitter';
import { SkippedOccurrences, skipOccurrences, skippedBefore, skippedByClockChange } from './skips';

/**
 * A new due time always bumps the revision, so a job queued for the old one can never claim the
 * action. The occurrence is runnable again from `now`: a due time already past then is not lateness.
 */
export function dueAgainAt(state: ActionState, nextAttemptAt: Date, now: Date): Pick<ActionState, 'nextAttemptAt' | 'runnableSince' | 'revision'> {
  return { nextAttemptAt, runnableSince: now, revision: state.revision + 1 };
}

/** Where a schedule goes next, and the occurrences it skips on the way. */
export interface NextTime {
  time: Date | null;
  catchUpNote?: string;
  skipped: SkippedOccurrences[];
  /** A RUN_ALL catch-up's pace: it is not due before this. */
  notBefore?: Date;
}

/** The occurrence after the current one that runs: skips asked for while the current one was covered come after it. */
export function nextRun(state: ActionState, schedule: Schedule, now: Date, catchUp: CatchUpPolicy): NextTime | null {
  const scheduled = nextScheduledTime(state, schedule, now, catchUp);
  return scheduled && state.skipPending > 0 ? withRequestedSkips(scheduled, schedule, state.skipPending) : scheduled;
}

/** When the next occurrence (number `occurrence`) is due: its time plus its jitter, and never before a catch-up's pace allows. */
export function dueAtOf(state: ActionState, time: Date, occurrence: number, notBefore: Date | undefined): Date {
  const dueAt = jittered(state, time, occurrence);
  return notBefore && notBefore > dueAt ? notBefore : dueAt;
}

function withRequestedSkips(next: NextTime, schedule: Schedule, count: number): NextTime {
  if (!next.time) return next;
  const requested = skipOccurrences(schedule, next.time, count, 'request');
  return { ...next, time: requested.next, skipped: [...next.skipped, ...requested.skipped] };
}

/** Occurrences after `endAt` are none of the schedule's: they are not listed as skipped. */
export function withinEnd(skipped: SkippedOccurrences[], endAt: Date | null): SkippedOccurrences[] {
  return endAt ? skipped.filter((skip) => skip.time <= endAt) : skipped;
}

/** The occurrence after the current one; when its time has passed, the misfire policy decides, and what it skips is listed. */
function nextScheduledTime(state: ActionState, schedule: Schedule, now: Date, catchUp: CatchUpPolicy): NextTime | null {
  const next = nextOccurrence(schedule, state.executionTime);
  if (!next || next > now) return next && { time: next, skipped: skippedByClockChange(schedule, state.executionTime, next) };
  const missed = misfired(state, schedule, next, now, catchUp);
  if (state.misfirePolicy !== MisfirePolicy.RunAll || !missed.time) return { time: missed.time, catchUpNote: missed.note, skipped: missed.skipped };
  // After a run, RUN_ALL's catch-ups follow one another at its pace.
  const notBefore = nextCatchUpAt(now, catchUp);
  return {
    time: missed.time,
    catchUpNote: [
      olderMissedSkipped(next, missed.time, catchUp),
      `missed occurrence ${missed.time.toISOString()} runs next, at ${notBefore.toISOString()} at the earliest (RUN_ALL)`,
    ]
      .filter(Boolean)
      .join('; '),
    skipped: missed.skipped,
    notBefore,
  };
}

/**
 * Where a schedule goes when `missedFrom`, its first time still to run, has passed: the misfire
 * policy, the one rule after a run and on a resume. `RUN_ALL` catches up from the earliest of the
 * latest `catchUp.max` missed times, `RUN_ONCE` on the latest, both up to endAt (nothing runs after
 * it); `SKIP` goes on to the first time after now. The missed times it passes over are listed.
 */
export function misfired(
  state: ActionState,
  schedule: Schedule,
  missedFrom: Date,
  now: Date,
  catchUp: CatchUpPolicy,
): { time: Date | null; note: string; skipped: SkippedOccurrences[] } {
  switch (state.misfirePolicy) {
    case MisfirePolicy.RunAll: {
      const first = firstCaughtUp(schedule, missedFrom, lastCatchUpTime(state, now), catchUp.max);
      const note = [olderMissedSkipped(missedFrom, first, catchUp), `missed occurrences run one after another from ${first.toISOString()} (RUN_ALL)`];
      return { time: first, note: note.filter(Boolean).join('; '), skipped: skippedBefore(schedule, missedFrom, first, 'misfire') };
    }
    case MisfirePolicy.RunOnce: {
      const latest = latestOccurrenceNotAfter(schedule, missedFrom, lastCatchUpTime(state, now));
      return {
        time: latest,
        note: `missed occurrences up to ${latest.toISOString()}: one catch-up runs now (RUN_ONCE)`,
        skipped: skippedBefore(schedule, missedFrom, latest, 'misfire'),
      };
    }
    case MisfirePolicy.Skip: {
      const after = firstOccurrenceAfter(schedule, missedFrom, now);
      return {
        time: after,
        note: after ? `missed occurrences before ${after.toISOString()} skipped (SKIP)` : 'missed occurrences skipped (SKIP)',
        skipped: after ? skippedBefore(schedule, missedFrom, after, 'misfire') : [],
      };
    }
  }
}

/** The latest missed time a catch-up may run: now, or endAt when that passed first (nothing runs after it). */
function lastCatchUpTime(state: ActionState, now: Date): Date {
  return state.endAt && state.endAt < now ? state.endAt : now;
}

/** The note of the missed occurrences before `first` that a RUN_ALL catch-up leaves out; null when it leaves none. */
function olderMissedSkipped(missedFrom: Date, first: Date, catchUp: CatchUpPolicy): string | null {
  return first > missedFrom ? `missed occurrences before ${first.toISOString()} skipped (RUN_ALL runs the latest ${catchUp.max} at most)` : null;
}
