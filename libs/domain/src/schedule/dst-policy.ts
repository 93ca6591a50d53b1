/** What a wall-clock schedule does with a local time the clocks jump over (spring forward). */
export const DST_GAP_RULES = ['shift', 'skip'] as const;
/** What a wall-clock schedule does with a local time that happens twice (fall back). */
export const DST_OVERLAP_RULES = ['first', 'last', 'both'] as const;

/**
 * How an action's owner wants daylight-saving changes handled by a wall-clock schedule (cron,
 * DAILY, WEEKLY, MONTHLY). `gap`: `shift` runs a skipped local time at the first instant after the
 * jump, `skip` drops it that day. `overlap`: `first` or `last` runs a repeated local time at that
 * one of its two instants, `both` at each.
 */
export interface DstPolicy {
  readonly gap: (typeof DST_GAP_RULES)[number];
  readonly overlap: (typeof DST_OVERLAP_RULES)[number];
}

/** The rule when the owner chose none: every local time runs exactly once. */
export const DEFAULT_DST_POLICY: DstPolicy = Object.freeze({ gap: 'shift', overlap: 'first' });
