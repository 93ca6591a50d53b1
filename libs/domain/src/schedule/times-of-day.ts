/** The local times of day at which a wall-clock schedule runs on each day it runs: the same on every such day. */
export interface TimesOfDay {
  /** The earliest and latest, in ms after midnight. */
  readonly first: number;
  readonly last: number;
  /** The shortest time between two consecutive times of one day, in ms; Infinity when there is one time. */
  readonly shortestGap: number;
  /** The first time at or after `ms` (ms after midnight), or null when none is left that day. */
  atOrAfter(ms: number): number | null;
  /** The last time before `ms` (ms after midnight), or null when none comes earlier that day. */
  before(ms: number): number | null;
}

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

/** The one time of day of DAILY, WEEKLY and MONTHLY. */
export function singleTimeOfDay(ms: number): TimesOfDay {
  return {
    first: ms,
    last: ms,
    shortestGap: Infinity,
    atOrAfter: (at) => (at <= ms ? ms : null),
    before: (at) => (at > ms ? ms : null),
  };
}

/**
 * A cron expression's times of day: every combination of its hours, minutes and seconds (each
 * given sorted). The shortest gap is found field by field, not walked: between two seconds of a
 * minute, across to the next named minute (the last second of one to the first of the next), and
 * across to the next named hour.
 */
export function cronTimesOfDay(hours: readonly number[], minutes: readonly number[], seconds: readonly number[]): TimesOfDay {
  const hour = new SortedField(hours, 24);
  const minute = new SortedField(minutes, 60);
  const second = new SortedField(seconds, 60);
  const timeOf = (h: number, m: number, s: number) => h * HOUR + m * MINUTE + s * SECOND;
  const first = timeOf(hour.lowest, minute.lowest, second.lowest);
  const last = timeOf(hour.highest, minute.highest, second.highest);
  const secondsSpan = (second.highest - second.lowest) * SECOND;
  const minutesSpan = (minute.highest - minute.lowest) * MINUTE + secondsSpan;
  return {
    first,
    last,
    shortestGap: Math.min(second.shortestStep * SECOND, minute.shortestStep * MINUTE - secondsSpan, hour.shortestStep * HOUR - minutesSpan),
    atOrAfter(ms) {
      const wanted = Math.ceil(ms / SECOND);
      const [h, m, s] = [Math.floor(wanted / 3600), Math.floor(wanted / 60) % 60, wanted % 60];
      if (hour.has(h)) {
        const sameMinute = minute.has(m) ? second.atOrAbove(s) : null;
        if (sameMinute !== null) return timeOf(h, m, sameMinute);
        const laterMinute = minute.atOrAbove(m + 1);
        if (laterMinute !== null) return timeOf(h, laterMinute, second.lowest);
      }
      const laterHour = hour.atOrAbove(h + 1);
      return laterHour === null ? null : timeOf(laterHour, minute.lowest, second.lowest);
    },
    before(ms) {
      const wanted = Math.ceil(ms / SECOND) - 1;
      if (wanted < 0) return null;
      const [h, m, s] = [Math.floor(wanted / 3600), Math.floor(wanted / 60) % 60, wanted % 60];
      if (hour.has(h)) {
        const sameMinute = minute.has(m) ? second.atOrBelow(s) : null;
        if (sameMinute !== null) return timeOf(h, m, sameMinute);
        const earlierMinute = minute.atOrBelow(m - 1);
        if (earlierMinute !== null) return timeOf(h, earlierMinute, second.highest);
      }
      const earlierHour = hour.atOrBelow(h - 1);
      return earlierHour === null ? null : timeOf(earlierHour, minute.highest, second.highest);
    },
  };
}

/** One field's values (sorted, within 0…size−1), with the nearest value above or below any number at hand. */
class SortedField {
  readonly lowest: number;
  readonly highest: number;
  /** The shortest difference between two consecutive values; Infinity for one value. */
  readonly shortestStep: number;
  private readonly members: Uint8Array;

  constructor(
    private readonly values: readonly number[],
    size: number,
  ) {
    this.lowest = values[0];
    this.highest = values[values.length - 1];
    this.members = new Uint8Array(size);
    let shortest = Infinity;
    values.forEach((value, i) => {
      this.members[value] = 1;
      if (i > 0) shortest = Math.min(shortest, value - values[i - 1]);
    });
    this.shortestStep = shortest;
  }

  has(value: number): boolean {
    return this.members[value] === 1;
  }

  atOrAbove(value: number): number | null {
    return this.values.find((candidate) => candidate >= value) ?? null;
  }

  atOrBelow(value: number): number | null {
    for (let i = this.values.length - 1; i >= 0; i -= 1) if (this.values[i] <= value) return this.values[i];
    return null;
  }
}
