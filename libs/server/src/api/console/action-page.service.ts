import { Injectable } from '@nestjs/common';
import { PunctualConfig } from '@app/config';
import { ActionEntity, EVERY_TENANT, WorkersRepository } from '@app/database';
import { ActionStatus, Clock, InvalidChangeError, LifecycleEvent, TransitionRefusedError, claimable, transition, unlockedGuard } from '@app/domain';
import { jobIdFor } from '@app/scheduling';
import { ActionQueries } from '../actions/action-queries.service';
import { ActionControls, ActionPageData, WorkerWait } from './views/action-page.view';
import { segment } from './views/html';

/** How many scheduled times an action's page lists. */
const OCCURRENCES_SHOWN = 5;

/** What the lifecycle answers to `decide` now, or null when it refuses: such a control could only be refused. */
function unlessRefused<T>(decide: () => T): T | null {
  try {
    return decide();
  } catch (error) {
    if (error instanceof TransitionRefusedError || error instanceof InvalidChangeError) return null;
    throw error;
  }
}

/**
 * The controls an action's state allows, asked of the same lifecycle rules the services apply:
 * an event is offered when its transition is accepted and changes something (pausing a paused
 * action, or cancelling twice, would not). The services still decide when the form is sent.
 */
export function controlsFor(action: ActionEntity, now: Date, { lockWindowMs, catchUp }: PunctualConfig['scheduling']): ActionControls {
  const changes = (event: LifecycleEvent) => (unlessRefused(() => transition(action, event))?.history.length ?? 0) > 0;
  return {
    pause: changes({ type: 'paused', now, note: null, lockWindowMs }),
    resume: changes({ type: 'resumed', now, catchUp }),
    cancel: changes({ type: 'canceled', now, note: null, lockWindowMs }),
    skip: changes({ type: 'skipRequested', now, count: 1, lockWindowMs }),
    retry: changes({ type: 'retriedManually', now }),
    reschedule: unlessRefused(() => unlockedGuard(action, 'changed', now, lockWindowMs)) !== null,
    delete: unlessRefused(() => unlockedGuard(action, 'deleted', now, lockWindowMs)) !== null,
  };
}

/** What an action's page shows, read through the same service as the API's reads. */
@Injectable()
export class ActionPageService {
  constructor(
    private readonly queries: ActionQueries,
    private readonly clock: Clock,
    private readonly config: PunctualConfig,
    private readonly workers: WorkersRepository,
  ) {}

  async load(id: string): Promise<Omit<ActionPageData, 'csrfToken'>> {
    // The action first, then its history: read together, an outcome committed between the two
    // reads would show the new status beside a history without the attempt that made it.
    const action = await this.queries.get(id, EVERY_TENANT);
    const [history, occurrences] = await Promise.all([
      this.queries.historyOf(id, EVERY_TENANT),
      this.queries.occurrences(id, EVERY_TENANT, OCCURRENCES_SHOWN),
    ]);
    // Only a PENDING or running action can have a job; a PENDING one beyond the queueing horizon has none yet.
    const queued = action.status === ActionStatus.Pending || action.status === ActionStatus.InProgress;
    return {
      action,
      // The first page: up to 1,000 entries, oldest first (the API pages longer histories).
      history: history.entries,
      occurrences,
      jobHref: queued ? `/admin/queues/queue/${segment(action.action)}/${segment(jobIdFor(action))}` : null,
      controls: controlsFor(action, this.clock.now(), this.config.scheduling),
      workerWait: await this.workerWait(action),
    };
  }

  /** Why a due action may be waiting: no live worker serves its type, or none even knows it. */
  private async workerWait(action: ActionEntity): Promise<WorkerWait | null> {
    if (!claimable(action, this.clock.now())) return null;
    const { known, served } = await this.workers.coverageOf(action.action);
    return !known ? 'unknown' : !served ? 'unserved' : null;
  }
}
