import { Injectable } from '@nestjs/common';
import { PunctualConfig } from '@app/config';
import { ActivityRepository, TenantScope } from '@app/database';
import { Clock } from '@app/domain';
import { ActionQueries } from '../actions/action-queries.service';
import { LastHourActivity } from './last-hour-activity';
import { OverviewData } from './views/overview.view';

/** How many of the most overdue actions the overview names. */
const OVERDUE_SHOWN = 10;

/**
 * The overview's figures, of every tenant or of one: the same counts as the API's stats, overdue
 * actions, and the last hour from the history.
 */
@Injectable()
export class OverviewService {
  constructor(
    private readonly queries: ActionQueries,
    private readonly activity: ActivityRepository,
    private readonly lastHour: LastHourActivity,
    private readonly clock: Clock,
    private readonly config: PunctualConfig,
  ) {}

  async overview(scope: TenantScope): Promise<Omit<OverviewData, 'tenant'>> {
    const at = this.clock.now();
    const overdueAfterMs = this.config.scheduling.overdueGraceMs;
    const [stats, overdue, minutes] = await Promise.all([
      this.queries.stats(scope),
      this.activity.overdue(scope, new Date(at.getTime() - overdueAfterMs), OVERDUE_SHOWN),
      this.lastHour.at(at, scope),
    ]);
    return { stats, overdue, overdueAfterMs, minutes, at };
  }
}
