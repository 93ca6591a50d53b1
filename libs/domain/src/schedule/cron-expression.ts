import { Cron, type CronPattern } from 'croner';
import { cronSyntaxProblem } from './cron-syntax';

/** croner's mark of a weekday that runs in every week of the month (a `#` or `L` sets fewer bits). */
const ANY_WEEK = 63;

/** The cron expression is not one Punctual can run. → 400 naming `cron` */
export class InvalidCronError extends Error {
  constructor(expression: string, reason: string) {
    super(`cron "${expression}" is not valid: ${reason}`);
    this.name = 'InvalidCronError';
  }
}

/** How a cron expression's day-of-month and day-of-week fields combine into the days it runs on. */
export type CronDayRule =
  /** Day-of-week is `*`: the days of the month named. */
  | 'dayOfMonth'
  /** Classic cron, both restricted: a day matching either. */
  | 'either'
  /** Day-of-month is `*` (or `+` asks for both): a day matching both. */
  | 'both'
  /** `L`, `W` or `#`: which days match depends on the month. */
  | 'monthDependent';

/** An expression's fields as sets, each a bit mask (bit n set: value n runs); day-of-month bit 0 is the 1st, month bit 0 January. */
export interface CronFields {
  readonly seconds: readonly number[];
  readonly minutes: readonly number[];
  readonly hours: readonly number[];
  readonly daysOfMonth: number;
  readonly months: number;
  /** Sunday is bit 0. */
  readonly weekdays: number;
  readonly dayRule: CronDayRule;
}

/**
 * A parsed cron expression, matched against wall-clock time: 5 fields (minute hour day-of-month
 * month day-of-week) or 6 with seconds first; numbers, ranges, lists, steps and JAN–DEC /
 * SUN–SAT names, L, W and # in the day fields, and the @daily-style shorthands (`cronSyntaxProblem`
 * says what is read); when both day fields are restricted a day matching either runs (classic cron).
 * Parsing and matching are croner's; the time zone is applied by the caller, in wall-clock time.
 */
export class CronExpression {
  private readonly cron: Cron;
  private parsedFields?: CronFields;

  constructor(readonly expression: string) {
    const problem = cronSyntaxProblem(expression);
    if (problem) throw new InvalidCronError(expression, problem);
    try {
      // Times given to croner are naive wall times (UTC fields = local fields), so it works at offset 0:
      // plain arithmetic, where a named zone ('UTC') made it format every candidate time through Intl.
      this.cron = new Cron(expression, { utcOffset: 0, mode: '5-or-6-parts', domAndDow: false, paused: true });
    } catch (error) {
      throw new InvalidCronError(expression, (error as Error).message.replace(/^CronPattern: /, ''));
    }
    // croner marks every year 1–9999 in a table that nothing reads when, as here, the year is `*`
    // (5 or 6 fields): kept, it made a remembered expression weigh tens of kilobytes.
    this.pattern().year = [];
  }

  /** The first matching wall time strictly after `wall`, or null when the expression never matches again. */
  nextAfter(wall: Date): Date | null {
    return this.cron.nextRun(wall);
  }

  /** The last matching wall time strictly before `wall`, or null. */
  previousBefore(wall: Date): Date | null {
    return this.cron.previousRuns(1, wall)[0] ?? null;
  }

  matches(wall: Date): boolean {
    return this.cron.match(wall);
  }

  /** The values each field names, as croner parsed them (croner's matcher reads the same ones). */
  fields(): CronFields {
    return (this.parsedFields ??= this.readFields());
  }

  /** croner keeps the pattern it parsed out of its typings; reading it spares parsing the expression twice. */
  private pattern(): CronPattern {
    return (this.cron as unknown as { _states: { pattern: CronPattern } })._states.pattern;
  }

  private readFields(): CronFields {
    const pattern = this.pattern();
    const monthDependent =
      pattern.lastDayOfMonth || pattern.lastWeekday || pattern.nearestWeekdays.some(Boolean) || pattern.dayOfWeek.some((n) => n !== 0 && n !== ANY_WEEK);
    return {
      seconds: valuesOf(pattern.second),
      minutes: valuesOf(pattern.minute),
      hours: valuesOf(pattern.hour),
      daysOfMonth: maskOf(pattern.day),
      months: maskOf(pattern.month),
      weekdays: maskOf(pattern.dayOfWeek),
      // As croner combines them with domAndDow off (see the constructor).
      dayRule: monthDependent ? 'monthDependent' : pattern.starDOW ? 'dayOfMonth' : pattern.useAndLogic || pattern.starDOM ? 'both' : 'either',
    };
  }
}

/** The values croner marked in a field (one flag per value). */
function valuesOf(flags: readonly number[]): number[] {
  const values: number[] = [];
  for (let value = 0; value < flags.length; value += 1) if (flags[value]) values.push(value);
  return values;
}

/** The same, as a bit mask. */
function maskOf(flags: readonly number[]): number {
  let mask = 0;
  for (let value = 0; value < flags.length; value += 1) if (flags[value]) mask |= 1 << value;
  return mask;
}
