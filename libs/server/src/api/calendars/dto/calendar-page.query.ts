import { pageQuery } from '../../input/page.query';

/** How many calendars a page holds when `limit` is not given. */
export const DEFAULT_CALENDAR_PAGE = 20;

/** `?limit=&cursor=` of `GET /calendars`: pages of at most 100, as each calendar carries its dates (up to 5,000). */
export class CalendarPageQuery extends pageQuery(100, DEFAULT_CALENDAR_PAGE) {}
