import { BenchClient } from '../bench/bench-client';
import { ActionDraft, PlannedAction } from './plan';

/** Creates waiting for an answer at once, at most: past this the load falls behind its rate, and says so. */
const MAX_IN_FLIGHT = 256;
/** How long one create keeps trying, alternating between the APIs, before the soak gives it up. */
const CREATE_PATIENCE_MS = 120_000;
const TICK_MS = 50;

export interface LoadFigures {
  created: number;
  /** Creates sent again, on the other API, after no answer or a 5xx. */
  resent: number;
  /** Creates given up after CREATE_PATIENCE_MS, or refused with a 4xx (then `refusals` says why). */
  givenUp: number;
  refusals: string[];
  /** Creates not sent because MAX_IN_FLIGHT were waiting: the machine did not sustain the rate. */
  behind: number;
}

/**
 * Creates actions at `rate` per second for `durationMs` through signed `POST /actions`, alternating
 * between the APIs. Each create carries an Idempotency-Key, so one that got no answer (its API was
 * killed, or Postgres cut) is sent again on the other API without ever storing it twice.
 */
export async function createActions(
  apis: readonly BenchClient[],
  rate: number,
  durationMs: number,
  draft: (now: number) => ActionDraft,
  planned: Map<string, PlannedAction>,
): Promise<LoadFigures> {
  const figures: LoadFigures = { created: 0, resent: 0, givenUp: 0, refusals: [], behind: 0 };
  const pending = new Set<Promise<void>>();
  const start = Date.now();
  let sent = 0;

  const create = async ({ body, plan }: ActionDraft, index: number) => {
    const deadline = Date.now() + CREATE_PATIENCE_MS;
    for (let attempt = 0; Date.now() < deadline; attempt += 1) {
      if (attempt > 0) {
        figures.resent += 1;
        await new Promise((resolve) => setTimeout(resolve, Math.min(2000, 100 * attempt)));
      }
      const answer = await apis[(index + attempt) % apis.length]
        .post<{ id: string }>('/actions', body, { 'Idempotency-Key': `soak-${start}-${index}` })
        .catch(() => null);
      if (answer === null || answer.status >= 500) continue;
      if (answer.status === 200 || answer.status === 201) {
        planned.set(answer.body.id, plan);
        figures.created += 1;
        return;
      }
      if (figures.refusals.length < 5) figures.refusals.push(`${answer.status} ${JSON.stringify(answer.body)}`);
      break;
    }
    figures.givenUp += 1;
  };

  while (Date.now() - start < durationMs) {
    const due = Math.floor(((Date.now() - start) / 1000) * rate);
    for (; sent < due; sent += 1) {
      if (pending.size >= MAX_IN_FLIGHT) {
        figures.behind += due - sent;
        sent = due;
        break;
      }
      const task = create(draft(Date.now()), sent);
      pending.add(task);
      void task.finally(() => pending.delete(task));
    }
    await new Promise((resolve) => setTimeout(resolve, TICK_MS));
  }
  await Promise.all(pending);
  return figures;
}
