import { percentile } from '../bench/percentile';
import { PlannedAction } from './plan';
import { Arrival } from './receivers';

/** What Postgres's history says of one occurrence (`<id>:<occurrence>`). */
export interface RecordedOccurrence {
  /** Attempts claimed: a claim, or the takeover of an interrupted one. */
  claims: number;
  /** Attempts recorded as succeeded. */
  successes: number;
}

export interface AuditFigures {
  actions: number;
  occurrences: number;
  /** Occurrences that should have run and never got a 2xx answer from a receiver. */
  lost: number;
  /**
   * Occurrences run twice: recorded as succeeded more than once, called while another call of
   * theirs was unanswered, or called more often than Postgres claimed attempts for them.
   */
  doubled: number;
  /** Calls that reached a receiver before their occurrence was due. */
  early: number;
  /** Each occurrence's first arrival after its due time, ms. */
  lateP50: number;
  lateP99: number;
  lateMax: number;
  /** Occurrences called more often than their receiver's planned failures explain: an attempt interrupted and run again with the same key. */
  retriedOccurrences: number;
  retriedCalls: number;
  /** Calls for an occurrence beyond an action's schedule, and calls for no action the soak created. */
  unscheduled: number;
  unknown: number;
}

/** Groups calls by idempotency key. */
function byKey(arrivals: readonly Arrival[]): Map<string, Arrival[]> {
  const groups = new Map<string, Arrival[]>();
  for (const arrival of arrivals) {
    const group = groups.get(arrival.key);
    if (group) group.push(arrival);
    else groups.set(arrival.key, [arrival]);
  }
  return groups;
}

/** Checks every planned occurrence against the receivers' calls and Postgres's history of it. */
export function audit(
  planned: ReadonlyMap<string, PlannedAction>,
  arrivals: readonly Arrival[],
  recorded: ReadonlyMap<string, RecordedOccurrence>,
): AuditFigures {
  const calls = byKey(arrivals);
  const lateness: number[] = [];
  const figures = { actions: planned.size, occurrences: 0, lost: 0, doubled: 0, early: 0, retriedOccurrences: 0, retriedCalls: 0 };
  for (const [id, plan] of planned) {
    plan.dues.forEach((due, index) => {
      const key = `${id}:${index + 1}`;
      const seen = calls.get(key) ?? [];
      calls.delete(key);
      const history = recorded.get(key) ?? { claims: 0, successes: 0 };
      figures.occurrences += 1;
      if (!seen.some((call) => call.answered && call.status < 300)) figures.lost += 1;
      if (history.successes > 1 || seen.some((call) => call.overlapped) || seen.length > history.claims) figures.doubled += 1;
      figures.early += seen.filter((call) => call.at < due).length;
      if (seen.length > 0) lateness.push(Math.min(...seen.map((call) => call.at)) - due);
      const expectedCalls = plan.behaviour === 'fail-once' ? 2 : 1;
      if (seen.length > expectedCalls) {
        figures.retriedOccurrences += 1;
        figures.retriedCalls += seen.length - expectedCalls;
      }
    });
  }
  const leftover = [...calls.keys()].map((key) => key.slice(0, key.lastIndexOf(':')));
  lateness.sort((a, b) => a - b);
  return {
    ...figures,
    lateP50: percentile(lateness, 50),
    lateP99: percentile(lateness, 99),
    lateMax: lateness.at(-1) ?? NaN,
    unscheduled: leftover.filter((id) => planned.has(id)).length,
    unknown: leftover.filter((id) => !planned.has(id)).length,
  };
}
