import { ActionStatus } from '../action-vocabulary';
import { Schedule, nextOccurrence } from '../schedule/schedule';
import type { ActionState, HistoryDraft, Transition } from './action-state';

/** Why an occurrence did not run. */
export const SKIP_REASONS = ['request', 'calendar', 'dst', 'misfire'] as const;
export type SkipReason = (typeof SKIP_REASONS)[number];

/** Occurrences that do not run: `count` of them (one, unless an outage missed many), the first at `time`. */
export interface SkippedOccurrences {
  readonly time: Date;
  readonly count: number;
  readonly reason: SkipReason;
}

/** In one change, each skipped occurrence up to this many gets its own history entry and event; the rest share one. */
export const MAX_LISTED_SKIPS = 100;
/** One change counts at most this many skipped occurrences, so that no outage makes it walk a schedule for long. */
export const MAX_COUNTED_SKIPS = 10_000;

/** The occurrences from `from` (included) before `until` (excluded), skipped for `reason`. */
export function skippedBefore(schedule: Schedule, from: Date, until: Date, reason: SkipReason): SkippedOccurrences[] {
  const listed: SkippedOccurrences[] = [];
  let restFrom: Date | null = null;
  let restCount = 0;
  let counted = 0;
  for (let time: Date | null = from; time && time < until && counted < MAX_COUNTED_SKIPS; time = nextOccurrence(schedule, time)) {
    counted += 1;
    if (listed.length < MAX_LISTED_SKIPS) {
      listed.push({ time, count: 1, reason });
    } else {
      restFrom ??= time;
      restCount += 1;
    }
  }
  return restFrom ? [...listed, { time: restFrom, count: restCount, reason }] : listed;
}

/**
 * The local times a clock change skipped between two occurrences, under `dstPolicy.gap = skip`:
 * those the same schedule with `shift` would have run (at the end of the gap). Every other time
 * is the same under both rules, so they are exactly the ones `shift` has in between.
 */
export function skippedByClockChange(schedule: Schedule, after: Date, next: Date): SkippedOccurrences[] {
  if (schedule.dstPolicy?.gap !== 'skip') return [];
  const shifting: Schedule = { ...schedule, dstPolicy: { ...schedule.dstPolicy, gap: 'shift' } };
  const first = nextOccurrence(shifting, after);
  return first ? skippedBefore(shifting, first, next, 'dst') : [];
}

/** Up to `count` occurrences from `from` (included), skipped for `reason`, and the first one after them (null when the schedule ends). */
export function skipOccurrences(schedule: Schedule, from: Date, count: number, reason: SkipReason): { skipped: SkippedOccurrences[]; next: Date | null } {
  const skipped: SkippedOccurrences[] = [];
  let time: Date | null = from;
  while (time && skipped.length < count) {
    skipped.push({ time, count: 1, reason });
    time = nextOccurrence(schedule, time);
  }
  return { skipped, next: time };
}

/** The history note of skipped occurrences: the reason and the scheduled time. */
export function skipNote(skip: SkippedOccurrences): string {
  // Only the rest of a long outage shares one entry, after MAX_LISTED_SKIPS listed ones.
  return occurrencesNote(skip, skip.count + MAX_LISTED_SKIPS >= MAX_COUNTED_SKIPS);
}

function occurrencesNote({ reason, time, count }: SkippedOccurrences, atLeast: boolean): string {
  if (count === 1) return `skipped: ${reason}, ${time.toISOString()}`;
  return `skipped: ${reason}, ${atLeast ? 'at least ' : ''}${count} occurrences from ${time.toISOString()} on`;
}

/** What a client is told of the occurrences one change skipped for one reason: the earliest MAX_LISTED_SKIPS times, and how many in all. */
export interface SkipNotice {
  readonly reason: SkipReason;
  readonly times: readonly Date[];
  readonly count: number;
  readonly note: string;
}

/**
 * One notice per reason a change skipped occurrences for, however many it skipped (a skip request
 * of 100, an outage of days): one change never fans out into more events than there are reasons.
 */
export function skipNoticesOf(skipped: readonly SkippedOccurrences[]): SkipNotice[] {
  return SKIP_REASONS.flatMap((reason) => {
    const skips = skipped.filter((skip) => skip.reason === reason);
    if (skips.length === 0) return [];
    const count = skips.reduce((sum, skip) => sum + skip.count, 0);
    const times = skips.slice(0, MAX_LISTED_SKIPS).map((skip) => skip.time);
    return [{ reason, times, count, note: occurrencesNote({ reason, time: times[0], count }, count >= MAX_COUNTED_SKIPS) }];
  });
}

/**
 * The history entry of skipped occurrences. Skipped occurrences take no occurrence number (an
 * occurrence number, and so an idempotency key, belongs to a run): the entry carries the number
 * of the occurrence that runs after them.
 */
export function skipEntry(skip: SkippedOccurrences, nextOccurrence: number): HistoryDraft {
  return { from: ActionStatus.Pending, to: ActionStatus.Pending, occurrence: nextOccurrence, attempt: 0, note: skipNote(skip) };
}

/**
 * The history entries of a transition's skipped occurrences, written before its own entry. A
 * calendar date's skip has none: the transition's own entry records it (the date, the calendar
 * and what runs next), and one skipped occurrence gets one entry.
 */
export function skipEntriesOf(t: Pick<Transition<ActionState>, 'event' | 'skipped' | 'after'>): HistoryDraft[] {
  return t.skipped.filter((skip) => !(t.event === 'calendarDate' && skip.reason === 'calendar')).map((skip) => skipEntry(skip, t.after.occurrence));
}
