import { CronFields } from './cron-expression';

/**
 * The longest gap reported, in days: a longer one (only 29 February can be one) is rarer than
 * yearly, so no minimum interval can be near it, and a pair that far apart may cross a century
 * year the scanned years do not hold.
 */
export const LONGEST_DAY_GAP = 366;

/**
 * From 2001, 29 years: every kind of year (its weekday on 1 January, leap or not) followed by
 * every kind that can follow it, so every pair of consecutive days a cron expression can run on,
 * less than a year apart, has its like in here.
 */
const FIRST_YEAR = 2001;
const YEARS = 29;
/** 1 January 2001 was a Monday (Sunday is 0). */
const FIRST_WEEKDAY = 1;

/**
 * The fewest days between two consecutive days the expression runs on (1 when it runs on two
 * days in a row), found month by month from its fields, each month's days a bit mask; null when
 * it runs on no day at all (`31 2`). An expression whose days depend on the month (`L`, `W`, `#`)
 * is taken to run on every day of its months: a lower bound.
 */
export function shortestDayGap(fields: CronFields): number | null {
  const weekdayMasks = Array.from({ length: 7 }, (_, firstWeekday) => weekdaysOfMonth(fields.weekdays, firstWeekday));
  let shortest: number = LONGEST_DAY_GAP;
  let lastRunDay = -Infinity;
  let monthStart = 0;
  for (let year = FIRST_YEAR; year < FIRST_YEAR + YEARS; year += 1) {
    for (let month = 0; month < 12; month += 1) {
      const length = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
      const days = fields.months & (1 << month) ? runDays(fields, weekdayMasks[(FIRST_WEEKDAY + monthStart) % 7]) & maskOfDays(length) : 0;
      if (days !== 0) {
        shortest = Math.min(shortest, monthStart + lowestBit(days) - lastRunDay, shortestGapBetweenBits(days));
        if (shortest === 1) return 1;
        lastRunDay = monthStart + highestBit(days);
      }
      monthStart += length;
    }
  }
  return lastRunDay === -Infinity ? null : shortest;
}

/** The days of a month (bit 0 the 1st) the expression runs on, given which weekdays its days fall on. */
function runDays(fields: CronFields, weekdayDays: number): number {
  switch (fields.dayRule) {
    case 'dayOfMonth':
      return fields.daysOfMonth;
    case 'either':
      return fields.daysOfMonth | weekdayDays;
    case 'both':
      return fields.daysOfMonth & weekdayDays;
    case 'monthDependent':
      return maskOfDays(31);
  }
}

/** The days of a month (bit 0 the 1st) that fall on one of `weekdays`, when the 1st is `firstWeekday`. */
function weekdaysOfMonth(weekdays: number, firstWeekday: number): number {
  let days = 0;
  for (let day = 0; day < 31; day += 1) if (weekdays & (1 << ((firstWeekday + day) % 7))) days |= 1 << day;
  return days;
}

function maskOfDays(count: number): number {
  return count >= 31 ? 0x7fffffff : (1 << count) - 1;
}

function lowestBit(bits: number): number {
  return 31 - Math.clz32(bits & -bits);
}

function highestBit(bits: number): number {
  return 31 - Math.clz32(bits);
}

/** The shortest distance between two set bits: the smallest shift at which the mask meets itself. */
function shortestGapBetweenBits(bits: number): number {
  for (let shift = 1; shift < 31; shift += 1) if (bits & (bits >>> shift)) return shift;
  return Infinity;
}
