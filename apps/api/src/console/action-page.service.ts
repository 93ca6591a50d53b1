import { Injectable } from '@nestjs/common';
import { ActionStatus } from '@app/domain';
import { jobIdFor } from '@app/scheduling';
import { ActionsService } from '../actions/actions.service';
import { ActionPageData } from './views/action-page.view';
import { segment } from './views/html';

/** How many scheduled times an action's page lists. */
const OCCURRENCES_SHOWN = 5;

/** What an action's page shows, read through the same service as the API's reads. */
@Injectable()
export class ActionPageService {
  constructor(private readonly actions: ActionsService) {}

  async load(id: string): Promise<Omit<ActionPageData, 'csrfToken'>> {
    const [action, history, occurrences] = await Promise.all([
      this.actions.get(id),
      this.actions.historyOf(id),
      this.actions.occurrences(id, OCCURRENCES_SHOWN),
    ]);
    // Only a PENDING or running action can have a job; a PENDING one beyond the queueing horizon has none yet.
    const queued = action.status === ActionStatus.Pending || action.status === ActionStatus.InProgress;
    return {
      action,
      // The first page: up to 1,000 entries, oldest first (the API pages longer histories).
      history: history.entries,
      occurrences,
      jobHref: queued ? `/admin/queues/queue/${segment(action.action)}/${segment(jobIdFor(action))}` : null,
    };
  }
}
