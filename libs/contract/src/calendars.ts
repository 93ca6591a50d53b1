// The `/calendars` API as it travels, over HTTP and RPC alike.

/** The body of `PUT /calendars/:name`: the calendar's dates replace any it had. */
export interface PutCalendarRequest {
  /** Local dates `YYYY-MM-DD` (at most 5,000): an occurrence on one of them, in its action's zone, does not run. */
  dates: string[];
  description?: string | null;
}

/** A calendar as every calendar route answers it. */
export interface CalendarResource {
  /** 1–64 characters of `[A-Za-z0-9_-]`. */
  name: string;
  /** In order, each once. */
  dates: string[];
  description: string | null;
  updatedAt: string;
}

/** One page of `GET /calendars`, by name. */
export interface CalendarListResource {
  items: CalendarResource[];
  /** Pass as `cursor` for the next page; null on the last page. */
  nextCursor: string | null;
}
