import { Behaviour } from './receivers';
import { pick } from './random';

/** What the audit expects of one created action: when each of its occurrences is due. */
export interface PlannedAction {
  /** Occurrence n (1-based) is due at `dues[n - 1]`, epoch ms. */
  dues: number[];
  behaviour: Behaviour;
}

export interface ActionDraft {
  body: Record<string, unknown>;
  plan: PlannedAction;
}

/** Creates in the mix: mostly one-off calls, some recurring a few times, some crons with a stop. */
const KINDS = ['once', 'once', 'once', 'once', 'once', 'once', 'once', 'recurring', 'cron', 'cron'] as const;
/** Most receivers answer at once; a few are slow or fail the first call of an occurrence. */
const BEHAVIOURS: readonly Behaviour[] = [...Array<Behaviour>(46).fill('ok'), 'slow', 'slow', 'fail-once', 'fail-once'];
/** An action is due this long after its create, at most: due times spread over the run. */
const MAX_LEAD_MS = 30_000;
const MIN_LEAD_MS = 1000;
/** Enough retries that the chaos, not the retry budget, decides what happens; quick retries. */
const RETRY_POLICY = { maxRetries: 10, backoff: { type: 'exponential', baseMs: 500, maxMs: 4000 } };

/** The first time at or after `ms` of a cron that fires every `periodMs` (a divisor of a minute): the epoch starts on a minute. */
const firstTick = (ms: number, periodMs: number) => Math.ceil(ms / periodMs) * periodMs;
const ticks = (first: number, periodMs: number, count: number) => Array.from({ length: count }, (_, i) => first + i * periodMs);

/**
 * The next action to create at `now`, calling `url(behaviour)`, and when its occurrences are due.
 * Repeating actions run every missed occurrence (RUN_ALL), so each due time stands whatever the delays.
 */
export function draftAction(random: () => number, now: number, url: (behaviour: Behaviour) => string): ActionDraft {
  const kind = pick(random, KINDS);
  const behaviour = pick(random, BEHAVIOURS);
  const executionTime = now + MIN_LEAD_MS + Math.floor(random() * (MAX_LEAD_MS - MIN_LEAD_MS));
  const base = { action: 'HTTP_REQUEST', executionTime, data: { url: url(behaviour) }, retryPolicy: RETRY_POLICY };
  if (kind === 'once') return { body: base, plan: { dues: [executionTime], behaviour } };
  const repeating = { ...base, repeat: true, misfirePolicy: 'RUN_ALL' };
  if (kind === 'recurring') {
    // Every 2 s, three times.
    const dues = ticks(firstTick(executionTime, 2000), 2000, 3);
    return { body: { ...repeating, cron: '*/2 * * * * *', executionRemainder: 3 }, plan: { dues, behaviour } };
  }
  // Every second or every 3 s, until a stop half a period after its 3rd to 6th time.
  const periodSeconds = pick(random, [1, 3]);
  const dues = ticks(firstTick(executionTime, periodSeconds * 1000), periodSeconds * 1000, 3 + Math.floor(random() * 4));
  const endAt = dues[dues.length - 1] + (periodSeconds * 1000) / 2;
  return { body: { ...repeating, cron: `*/${periodSeconds} * * * * *`, endAt }, plan: { dues, behaviour } };
}
