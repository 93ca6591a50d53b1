import { Frequency } from '../action-vocabulary';
import { CronExpression } from './cron-expression';
import { Schedule } from './schedule';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/** A frequency's shortest step; a wall-clock step may lose the hour a clock change skips. */
const FREQUENCY_STEP_MS: Record<Frequency, number> = {
  [Frequency.TenMins]: 10 * 60_000,
  [Frequency.Hourly]: HOUR_MS,
  [Frequency.Daily]: DAY_MS - HOUR_MS,
  [Frequency.Weekly]: 7 * DAY_MS - HOUR_MS,
  [Frequency.Monthly]: 28 * DAY_MS - HOUR_MS,
};

/**
 * A cron expression's fields are independent (every matching minute holds the same seconds, every
 * matching hour the same minutes), so its shortest gap shows within two days of wall time or the
 * first matches of a dense one. One walk per expression, remembered: a batch of one schedule
 * pays it once.
 */
const WALKED_DAYS = 2;
const WALKED_MATCHES = 2000;
const shortestCronGaps = new Map<string, number>();
const MAX_REMEMBERED = 1000;

/**
 * The shortest time between two consecutive scheduled occurrences of `schedule` (before jitter), in
 * ms: a frequency's step, or a cron expression's closest wall-clock times.
 */
export function shortestRepeatInterval(schedule: Schedule): number {
  if (schedule.frequency) return FREQUENCY_STEP_MS[schedule.frequency];
  return shortestCronGap(schedule.cron!);
}

function shortestCronGap(expression: string): number {
  let gap = shortestCronGaps.get(expression);
  if (gap === undefined) {
    gap = walkedGap(new CronExpression(expression));
    if (shortestCronGaps.size >= MAX_REMEMBERED) shortestCronGaps.delete(shortestCronGaps.keys().next().value!);
    shortestCronGaps.set(expression, gap);
  }
  return gap;
}

function walkedGap(cron: CronExpression): number {
  // From a Monday's midnight, so that the walk meets a day boundary and a weekday change.
  const start = Date.UTC(2027, 0, 4);
  let shortest = DAY_MS;
  let previous = cron.nextAfter(new Date(start - 1));
  for (let matches = 1; previous && matches < WALKED_MATCHES && previous.getTime() < start + WALKED_DAYS * DAY_MS; matches += 1) {
    const next = cron.nextAfter(previous);
    if (!next) break;
    shortest = Math.min(shortest, next.getTime() - previous.getTime());
    previous = next;
  }
  return shortest;
}
