import { Injectable } from '@nestjs/common';
import {
  ActionCountsRepository,
  ActionEntity,
  ActionStats,
  ActionsRepository,
  CalendarsRepository,
  HistoryRecord,
  HistoryRepository,
  TenantScope,
} from '@app/database';
import { CalendarDates, upcomingOccurrences } from '@app/domain';
import { InvalidActionDataError } from '@app/action-types';
import { VerifiedKey } from '@app/signature';
import { ActionNotFoundError } from '../errors/action.errors';
import { decodeCursor, encodeCursor } from '../input/list-cursor';
import { ActionInputChecks, unknownCalendar } from './action-input-checks';
import { CreateActionDto } from './dto/create-action.dto';
import { HistoryQuery, MAX_HISTORY_PAGE } from './dto/history.query';
import { ListActionsQuery } from './dto/list-actions.query';
import { decodeHistoryCursor, encodeHistoryCursor } from './history-cursor';

export interface ActionPage {
  items: ActionEntity[];
  nextCursor: string | null;
}

export interface HistoryPage {
  entries: HistoryRecord[];
  /** The query of the page that follows, or null on the last page. */
  next: { limit: number; cursor: string } | null;
}

/** What a list can ask for: the REST query's filters, and for the console a due-time range, paused or not, and the latest first. */
export interface ActionListRequest extends ListActionsQuery {
  newestFirst?: boolean;
  paused?: boolean;
  dueFrom?: Date;
  dueBefore?: Date;
}

/**
 * The client's reads of actions, which change nothing. Every read is within a scope: the caller's
 * tenant, or every tenant for an operator; an action outside it is as missing as one that never was.
 */
@Injectable()
export class ActionQueries {
  constructor(
    private readonly actions: ActionsRepository,
    private readonly history: HistoryRepository,
    private readonly counts: ActionCountsRepository,
    private readonly calendars: CalendarsRepository,
    private readonly input: ActionInputChecks,
  ) {}

  async get(id: string, scope: TenantScope): Promise<ActionEntity> {
    const action = await this.actions.findById(id, scope);
    if (!action) throw new ActionNotFoundError(id);
    return action;
  }

  async list(query: ActionListRequest, scope: TenantScope): Promise<ActionPage> {
    const limit = query.limit ?? 50;
    const rows = await this.actions.list(
      {
        status: query.status,
        action: query.action,
        paused: query.paused,
        limit: limit + 1,
        after: query.cursor ? decodeCursor(query.cursor) : undefined,
        descending: query.newestFirst,
        dueFrom: query.dueFrom,
        dueBefore: query.dueBefore,
      },
      scope,
    );
    const items = rows.slice(0, limit);
    const last = items[items.length - 1];
    return { items, nextCursor: rows.length > limit ? encodeCursor(last) : null };
  }

  stats(scope: TenantScope): Promise<ActionStats> {
    return this.counts.stats(scope);
  }

  /** One page of the action's history, oldest first; an action's history may grow without bound, a page may not. */
  async historyOf(id: string, scope: TenantScope, query: HistoryQuery = {}): Promise<HistoryPage> {
    const limit = query.limit ?? MAX_HISTORY_PAGE;
    const rows = await this.history.page(id, scope, limit + 1, query.cursor ? decodeHistoryCursor(query.cursor) : undefined);
    // Every action has its creation entry, so only an empty page can mean that the action is gone (or not the caller's).
    if (rows.length === 0) await this.get(id, scope);
    const entries = rows.slice(0, limit);
    const next = rows.length > limit ? { limit, cursor: encodeHistoryCursor(entries[entries.length - 1].id) } : null;
    return { entries, next };
  }

  /** The action's next scheduled times from its current occurrence on (the recurrence the worker follows). */
  async occurrences(id: string, scope: TenantScope, count: number): Promise<Date[]> {
    const action = await this.get(id, scope);
    return upcomingOccurrences(action, count, await this.calendarDates(action.tenantId, action.calendar));
  }

  /** The times a create body would run at, validated exactly as a create; nothing is stored or queued. */
  async preview(dto: CreateActionDto, caller: VerifiedKey, count: number): Promise<Date[]> {
    const { state } = await this.input.toNewAction(dto, caller, 'data');
    // One read gives the dates and tells an unknown calendar apart.
    const dates = state.calendar === null ? undefined : await this.calendars.datesOf(caller.tenant, state.calendar);
    if (dates === null) throw new InvalidActionDataError([unknownCalendar('calendar', state.calendar!)]);
    return upcomingOccurrences(state, count, dates);
  }

  /** The dates of the tenant's calendar an action names, as they are now. */
  private async calendarDates(tenant: string, calendar: string | null): Promise<CalendarDates | undefined> {
    return calendar === null ? undefined : ((await this.calendars.datesOf(tenant, calendar)) ?? undefined);
  }
}
