import { Cron } from 'croner';

/** The cron expression is not one Punctual can run. → 400 naming `cron` */
export class InvalidCronError extends Error {
  constructor(expression: string, reason: string) {
    super(`cron "${expression}" is not valid: ${reason}`);
    this.name = 'InvalidCronError';
  }
}

/**
 * A parsed cron expression, matched against wall-clock time: 5 fields (minute hour day-of-month
 * month day-of-week) or 6 with seconds first; numbers, ranges, lists, steps and JAN–DEC /
 * SUN–SAT names; when both day fields are restricted a day matching either runs (classic cron).
 * Parsing and matching are croner's; the time zone is applied by the caller, in wall-clock time.
 */
export class CronExpression {
  private readonly cron: Cron;

  constructor(readonly expression: string) {
    try {
      // Times given to croner are naive wall times (UTC fields = local fields), so it works in UTC.
      this.cron = new Cron(expression, { timezone: 'UTC', mode: '5-or-6-parts', domAndDow: false, paused: true });
    } catch (error) {
      throw new InvalidCronError(expression, (error as Error).message.replace(/^CronPattern: /, ''));
    }
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
}
