/**
 * The conditions on a row of `actions` that more than one reader asks, written once. Each is the SQL
 * twin of a rule of `@app/domain` (`heldByPause`, `claimable`, `overdue`, `endsForUnknownType`,
 * `occurrenceLocalDay`), and
 * `test/action-predicates.e2e-spec.ts` holds each pair together over the lifecycle's case table.
 * They name the row's columns unqualified, so they read a row of `actions` aliased or not; times are
 * SQL expressions (`now()`, a parameter), so a reader can ask "at" any instant.
 */

/** PENDING at or after the occurrence its pause holds: it waits for a resume. Claims, promotion, the overdue sweep and gauge skip it. */
export const HELD_BY_PAUSE = `(status = 'PENDING' AND paused_from IS NOT NULL AND occurrence >= paused_from)`;

/** The occurrence may start at `now`: PENDING, due, not held by a pause. */
export function claimableAt(now: string): string {
  return `(status = 'PENDING' AND next_attempt_at <= ${now} AND NOT ${HELD_BY_PAUSE})`;
}

/** PENDING, due before `dueBefore` and not held by a pause: it should have started, and its job may be lost. */
export function overdueBefore(dueBefore: string): string {
  return `(status = 'PENDING' AND next_attempt_at < ${dueBefore} AND NOT ${HELD_BY_PAUSE})`;
}

/**
 * The action may end NO_ACTION at `now`: claimable, or IN_PROGRESS with a claim that lapsed (its worker
 * died mid-attempt), for `graceMs` during which no live worker knew its type. A worker's `live_until`
 * is when it stopped being live (or will, while it beats), so no worker knowing the type lived within
 * the last `graceMs`, and none lives now.
 */
export function ofUnknownTypeAt(now: string, graceMs: string): string {
  const graceAgo = `${now} - ${graceMs} * interval '1 millisecond'`;
  return `(((${claimableAt(now)} AND next_attempt_at <= ${graceAgo}) OR (status = 'IN_PROGRESS' AND coalesce(claimed_until <= ${graceAgo}, false)))
    AND NOT EXISTS (SELECT 1 FROM workers w WHERE w.knows @> ARRAY[action]::text[] AND w.live_until > ${graceAgo}))`;
}

/**
 * The local date of the row's current occurrence in its zone (UTC for a one-off action, which has
 * none): the day its calendar is checked against. `row` names the row, since the calendar's own
 * table has columns of the same names.
 */
export function occurrenceLocalDay(row: string): string {
  return `(${row}.execution_time AT TIME ZONE coalesce(${row}.timezone, 'UTC'))::date`;
}

/**
 * The row's current occurrence falls on a date of its calendar: it is not claimed but skipped (the
 * lifecycle's `calendarDate`). One index lookup, and none for an action without a calendar.
 */
export function onCalendarDate(row: string): string {
  return `(${row}.calendar IS NOT NULL AND EXISTS (
        SELECT 1 FROM calendar_dates d
        WHERE d.tenant_id = ${row}.tenant_id AND d.calendar = ${row}.calendar AND d.day = ${occurrenceLocalDay(row)}))`;
}
