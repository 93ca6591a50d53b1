/**
 * The conditions on a row of `actions` that more than one reader asks, written once. Each is the SQL
 * twin of a rule of `@app/domain` (`heldByPause`, `claimable`, `overdue`, `endsForUnknownType`), and
 * `test/action-predicates.e2e-spec.ts` holds each pair together over the lifecycle's case table.
 * They name the row's columns unqualified, so they read a row of `actions` aliased or not; times are
 * SQL expressions (`now()`, a parameter), so a reader can ask "at" any instant.
 */

/** PENDING at or after the occurrence its pause holds: it waits for a resume. Claims, promotion, the overdue sweep and gauge skip it. */
export const HELD_BY_PAUSE = `(paused_from IS NOT NULL AND occurrence >= paused_from)`;

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
