/**
 * The lifecycle's `heldByPause` as SQL, for a PENDING row of `actions` aliased `a` or unaliased:
 * the occurrence waits for a resume. Claims, promotion, the overdue sweep and gauge skip such rows.
 */
export const HELD_BY_PAUSE = `(paused_from IS NOT NULL AND occurrence >= paused_from)`;
