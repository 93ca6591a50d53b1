import { instantAt, wallTime } from './zoned-time';

/** A calendar's dates as local days (`YYYY-MM-DD`): an occurrence whose local date is one of them does not run. */
export type CalendarDates = ReadonlySet<string>;

/** The most dates one calendar holds: years of holidays, and still one small read. */
export const MAX_CALENDAR_DATES = 5000;

const DAY_MS = 86_400_000;
const CALENDAR_NAME = /^[A-Za-z0-9_-]{1,64}$/;
const ISO_DAY = /^[1-9]\d{3}-\d{2}-\d{2}$/;

/** Whether `name` can name a calendar: 1–64 characters of `[A-Za-z0-9_-]`, so it fits a path unescaped. */
export function isCalendarName(name: unknown): name is string {
  return typeof name === 'string' && CALENDAR_NAME.test(name);
}

/** Whether `text` is a day that exists, written `YYYY-MM-DD` (`2027-02-30` is not one). */
export function isCalendarDay(text: unknown): text is string {
  if (typeof text !== 'string' || !ISO_DAY.test(text)) return false;
  const day = new Date(`${text}T00:00:00Z`);
  return !Number.isNaN(day.getTime()) && day.toISOString().startsWith(text);
}

/** The local date of `time` in `zone`: the day a calendar is checked against. */
export function localDay(time: Date, zone: string): string {
  return wallTime(time, zone).toISOString().slice(0, 10);
}

/** The first local day after `day` that is not one of `dates`: a calendar's run of consecutive dates is passed in one go. */
export function firstDayNotIn(dates: CalendarDates, day: string): string {
  let next = day;
  do next = new Date(Date.parse(`${next}T00:00:00Z`) + DAY_MS).toISOString().slice(0, 10);
  while (dates.has(next));
  return next;
}

/** The first instant of local day `day` in `zone` (after the gap when the clocks jump over its midnight). */
export function startOfLocalDay(day: string, zone: string): Date {
  return instantAt(new Date(`${day}T00:00:00Z`), zone);
}
