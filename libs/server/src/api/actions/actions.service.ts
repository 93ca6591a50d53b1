import { Injectable } from '@nestjs/common';
import { randomInt, randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { PunctualConfig } from '@app/config';
import {
  ActionCountsRepository,
  ActionEntity,
  ActionStats,
  ActionsRepository,
  CalendarsRepository,
  HistoryRecord,
  HistoryRepository,
  NewAction,
  TenantScope,
  isCalendarDeletedMeanwhile,
  ownedBy,
} from '@app/database';
import {
  CalendarDates,
  Clock,
  LifecycleEvent,
  MisfirePolicy,
  TERMINAL_STATUSES,
  Transition,
  TransitionRefusedError,
  UnlockedGuard,
  assertRepeatInterval,
  unlockedGuard,
  newActionState,
  transition,
  upcomingOccurrences,
} from '@app/domain';
import { ActionTypeRegistry, InvalidActionDataError, MessagePermissions, UnknownActionTypeError } from '@app/action-types';
import { EgressPolicy } from '@app/outbound';
import { VerifiedKey } from '@app/signature';
import { ActionScheduler } from '@app/scheduling';
import { webhookUrlProblem } from '@app/webhooks';
import { ActionNotFoundError } from '../errors/action.errors';
import { mapInSlices } from '../http/event-loop-slices';
import { decodeCursor, encodeCursor } from '../input/list-cursor';
import { CreateActionDto } from './dto/create-action.dto';
import { HistoryQuery, MAX_HISTORY_PAGE } from './dto/history.query';
import { ListActionsQuery } from './dto/list-actions.query';
import { UpdateActionDto } from './dto/update-action.dto';
import { decodeHistoryCursor, encodeHistoryCursor } from './history-cursor';
import { TenantQuotas } from './tenant-quotas';

export interface ActionPage {
  items: ActionEntity[];
  nextCursor: string | null;
}

export interface HistoryPage {
  entries: HistoryRecord[];
  /** The query of the page that follows, or null on the last page. */
  next: { limit: number; cursor: string } | null;
}

/** An `Idempotency-Key` with the canonical hash of the body it came with. */
export interface IdempotencyClaim {
  key: string;
  requestHash: string;
}

/** What a list can ask for: the REST query's filters, and for the console a due-time range, paused or not, and the latest first. */
export interface ActionListRequest extends ListActionsQuery {
  newestFirst?: boolean;
  paused?: boolean;
  dueFrom?: Date;
  dueBefore?: Date;
}

/**
 * How long a change read-then-written may keep losing to concurrent ones before the client is told
 * to try again. A per-second cron on a busy machine changes with every claim and outcome, so a
 * fixed count of attempts could refuse its cancel; a time budget with a random pause between
 * attempts steps out of lockstep with the worker instead.
 */
const CHANGE_SETTLE_MS = 5_000;
const CHANGE_RETRY_PAUSE_MS = { min: 5, max: 50 };

/**
 * The client's view of actions: validate, then let the lifecycle decide and the scheduler persist
 * and queue. Every read is within a scope: the caller's tenant, or every tenant for an operator; an
 * action outside it is as missing as one that never was.
 */
@Injectable()
export class ActionsService {
  constructor(
    private readonly actions: ActionsRepository,
    private readonly history: HistoryRepository,
    private readonly counts: ActionCountsRepository,
    private readonly calendars: CalendarsRepository,
    private readonly types: ActionTypeRegistry,
    private readonly scheduler: ActionScheduler,
    private readonly clock: Clock,
    private readonly config: PunctualConfig,
    private readonly egress: EgressPolicy,
    private readonly quotas: TenantQuotas,
    private readonly messaging: MessagePermissions,
  ) {}

  /**
   * Creates one action; with an idempotency key, a repeat returns the first action and `created: false`,
   * and a repeat with another body is refused (`IdempotencyKeyReusedError`). A repeat is answered
   * before the quotas, and counts against neither; a new create is admitted before its costly
   * validation, and a refused one gives its active place back but not its rate (so a flood of
   * invalid requests is held to the rate too).
   */
  async create(dto: CreateActionDto, caller: VerifiedKey, idempotency?: IdempotencyClaim): Promise<{ action: ActionEntity; created: boolean }> {
    const first = idempotency && (await this.actions.replayOf(caller.keyId, idempotency.key, idempotency.requestHash, caller.tenant));
    if (first) return { created: false, action: first };
    const places = await this.quotas.admit(caller.tenant, 1);
    try {
      const input = await this.toNewAction(dto, caller, 'data');
      await this.assertCalendarsExist(caller.tenant, [{ calendar: input.state.calendar, field: 'calendar' }]);
      const result = await refusingDeletedCalendars(async () => {
        if (idempotency) return this.scheduler.createIdempotent(caller.keyId, idempotency.key, idempotency.requestHash, input);
        return { created: true, action: await this.scheduler.create(input) };
      });
      // A concurrent repeat stored first: this request is a repeat too, and counts against nothing.
      if (result.created) places.keep();
      else await this.quotas.refundRate(caller.tenant, 1);
      return result;
    } finally {
      places.release();
    }
  }

  /**
   * Admits the batch first, then validates every item and names each bad one by index; then
   * stores all in one statement.
   */
  async createBatch(items: CreateActionDto[], caller: VerifiedKey): Promise<ActionEntity[]> {
    const places = await this.quotas.admit(caller.tenant, items.length);
    try {
      const created = await this.validateAndCreateAll(items, caller);
      places.keep();
      return created;
    } finally {
      places.release();
    }
  }

  /** The items are checked in slices (see `mapInSlices`): a thousand schedules to judge hold no other request back meanwhile. */
  private async validateAndCreateAll(items: CreateActionDto[], caller: VerifiedKey): Promise<ActionEntity[]> {
    const problems: string[] = [];
    const inputs: NewAction[] = [];
    const calendars: { calendar: string | null; field: string }[] = [];
    await mapInSlices(items, async (item, index) => {
      try {
        const input = await this.toNewAction(item, caller, `items.${index}.data`);
        inputs.push(input);
        calendars.push({ calendar: input.state.calendar, field: `items.${index}.calendar` });
      } catch (error) {
        if (error instanceof InvalidActionDataError) problems.push(...error.problems);
        else if (error instanceof UnknownActionTypeError) problems.push(`items.${index}.action: ${error.message}`);
        else throw error;
      }
    });
    if (problems.length > 0) throw new InvalidActionDataError(problems);
    await this.assertCalendarsExist(caller.tenant, calendars);
    return refusingDeletedCalendars(() => this.scheduler.createAll(inputs));
  }

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
    const { state } = await this.toNewAction(dto, caller, 'data');
    // One read gives the dates and tells an unknown calendar apart.
    const dates = state.calendar === null ? undefined : await this.calendars.datesOf(caller.tenant, state.calendar);
    if (dates === null) throw new InvalidActionDataError([unknownCalendar('calendar', state.calendar!)]);
    return upcomingOccurrences(state, count, dates);
  }

  /**
   * Applies a client's change to a PENDING action outside the lock window (409 otherwise). `keyId`
   * is the caller's API key (null for an operator in the console): it signs the data or callback
   * URL it sets.
   */
  async update(id: string, scope: TenantScope, dto: UpdateActionDto, keyId: string | null): Promise<ActionEntity> {
    return this.changeUntilSettled(id, scope, async (current) => {
      const now = this.clock.now();
      const guard = unlockedGuard(current, 'changed', now, this.config.scheduling.lockWindowMs);
      if (dto.data) await this.validData(current.tenantId, current.action, dto.data);
      this.assertCallbackUrl(dto.callbackUrl, 'callbackUrl');
      await this.assertCalendarsExist(current.tenantId, [{ calendar: dto.calendar ?? null, field: 'calendar' }]);
      const patched = transition(current, { type: 'patched', now, changes: dto, by: keyId });
      assertRepeatInterval(patched.after, this.config.scheduling.minRepeatIntervalMs);
      return refusingDeletedCalendars(() => this.applyCounted(patched, guard));
    });
  }

  /** Deletes a finished action, or a PENDING one outside the lock window (409 otherwise); it never runs. */
  async remove(id: string, scope: TenantScope): Promise<void> {
    await this.changeUntilSettled(id, scope, async (current) => {
      const guard = unlockedGuard(current, 'deleted', this.clock.now(), this.config.scheduling.lockWindowMs);
      return this.applyCounted(transition(current, { type: 'deleted' }), guard);
    });
  }

  /**
   * Stops the action for good (409 once it is final): CANCELED at once, or, while its occurrence
   * runs or is locked, once that occurrence ends (`cancelRequestedAt` set meanwhile).
   */
  async cancel(id: string, scope: TenantScope, note: string | null): Promise<ActionEntity> {
    return this.changeUntilSettled(id, scope, (current) => {
      const event: LifecycleEvent = { type: 'canceled', now: this.clock.now(), note, lockWindowMs: this.config.scheduling.lockWindowMs };
      return this.applyCounted(transition(current, event), { statuses: [current.status] });
    });
  }

  /**
   * Holds every later occurrence until `resume` (409 once final); an occurrence that is running or
   * locked finishes first, with its retries. Pausing a paused action changes nothing.
   */
  async pause(id: string, scope: TenantScope, note: string | null): Promise<ActionEntity> {
    await this.countControl(scope);
    return this.changeUntilSettled(id, scope, (current) => {
      const event: LifecycleEvent = { type: 'paused', now: this.clock.now(), note, lockWindowMs: this.config.scheduling.lockWindowMs };
      return this.applyCounted(transition(current, event), { statuses: [current.status] });
    });
  }

  /** Lets a paused action run again (409 once final); an occurrence whose time passed meanwhile follows the misfire policy. */
  async resume(id: string, scope: TenantScope): Promise<ActionEntity> {
    await this.countControl(scope);
    return this.changeUntilSettled(id, scope, (current) =>
      this.applyCounted(transition(current, { type: 'resumed', now: this.clock.now(), catchUp: this.config.scheduling.catchUp }), {
        statuses: [current.status],
      }),
    );
  }

  /**
   * The next `count` occurrences of a repeating action do not run (409 for a one-off or final
   * action): at once when not locked, else after the locked or running occurrence.
   */
  async skip(id: string, scope: TenantScope, count: number): Promise<ActionEntity> {
    await this.countControl(scope);
    return this.changeUntilSettled(id, scope, async (current) => {
      const event: LifecycleEvent = { type: 'skipRequested', now: this.clock.now(), count, lockWindowMs: this.config.scheduling.lockWindowMs };
      return this.applyCounted(transition(current, event), { statuses: [current.status] });
    });
  }

  /**
   * Puts a FAILED or NO_ACTION action back to PENDING, due now, as the same occurrence (409
   * otherwise); it takes a place among its tenant's active actions (429 when none is left).
   */
  async retry(id: string, scope: TenantScope): Promise<ActionEntity> {
    await this.countControl(scope);
    return this.changeUntilSettled(id, scope, (current) => {
      const event: LifecycleEvent = { type: 'retriedManually', now: this.clock.now() };
      return this.applyCounted(transition(current, event), { statuses: [current.status] });
    });
  }

  /**
   * A tenant's pause, resume, skip or retry counts as one create against its rate (429 when none
   * is left), so a flood of them costs what a flood of creates does. Cancel never counts: stopping
   * must always work. The operator, in the console, acts for no tenant and counts against none.
   */
  private async countControl(scope: TenantScope): Promise<void> {
    const tenant = ownedBy(scope);
    if (tenant !== null) await this.quotas.countControl(tenant);
  }

  /**
   * Persists a transition (see `ActionScheduler.apply`) and keeps the tenant's active actions
   * right: one made active again (a manual retry) needs a free place first (429 when there is
   * none, nothing changed), one that stops being active (deleted, canceled, finished) frees its
   * place at once.
   */
  private async applyCounted(change: Transition<ActionEntity>, guard: UnlockedGuard): Promise<ActionEntity | null> {
    const activated = Number(isActive(change.after) && !change.deleted) - Number(isActive(change.before));
    const places = activated > 0 ? await this.quotas.holdActive(change.before.tenantId, activated) : null;
    try {
      const updated = await this.scheduler.apply(change, guard);
      if (updated) places?.keep();
      if (updated && activated < 0) this.quotas.freed(change.before.tenantId, -activated);
      return updated;
    } finally {
      places?.release();
    }
  }

  /**
   * Reads the action and applies `change` to what was read. The write is conditional on that
   * state, so when a worker or another client changed the action in between, it is read again and
   * the rules decide anew (now perhaps refusing with the new reason).
   */
  private async changeUntilSettled(
    id: string,
    scope: TenantScope,
    change: (current: ActionEntity) => Promise<ActionEntity | null>,
  ): Promise<ActionEntity> {
    const giveUpAt = Date.now() + CHANGE_SETTLE_MS;
    for (;;) {
      const changed = await change(await this.get(id, scope));
      if (changed) return changed;
      if (Date.now() >= giveUpAt) break;
      await sleep(randomInt(CHANGE_RETRY_PAUSE_MS.min, CHANGE_RETRY_PAUSE_MS.max));
    }
    throw new TransitionRefusedError(`Action ${id} is changing right now (it is being run or changed by someone else); try again`);
  }

  /** Refuses (400, naming each field) data that does not fit its type, or a message its tenant may not send. */
  private async validData(tenant: string, type: string, data: object, path = 'data'): Promise<void> {
    await this.types.validateData(type, data, path);
    await this.messaging.assertAllowed(tenant, type, data, path);
  }

  private async toNewAction(dto: CreateActionDto, caller: VerifiedKey, dataPath: string): Promise<NewAction> {
    await this.validData(caller.tenant, dto.action, dto.data, dataPath);
    this.assertCallbackUrl(dto.callbackUrl, dataPath.replace(/data$/, 'callbackUrl'));
    const { state, history } = newActionState(
      {
        executionTime: dto.executionTime ?? null,
        data: dto.data,
        metadata: dto.metadata ?? {},
        repeat: dto.repeat ?? false,
        frequency: dto.frequency ?? null,
        cron: dto.cron ?? null,
        timezone: dto.timezone ?? null,
        executionRemainder: dto.executionRemainder ?? null,
        endAt: dto.endAt ?? null,
        misfirePolicy: dto.misfirePolicy ?? MisfirePolicy.RunOnce,
        retryPolicy: dto.retryPolicy ?? null,
        callbackUrl: dto.callbackUrl ?? null,
        jitterMs: dto.jitterMs ?? null,
        dstPolicy: dto.dstPolicy ?? null,
        calendar: dto.calendar ?? null,
      },
      caller.keyId,
      this.clock.now(),
      randomInt(2 ** 31),
    );
    assertRepeatInterval(state, this.config.scheduling.minRepeatIntervalMs);
    return { id: randomUUID(), tenantId: caller.tenant, action: dto.action, apiKeyId: caller.keyId, state, history };
  }

  /** Refuses (400, naming each field) a calendar name that names no calendar; asks nothing when none is named. */
  private async assertCalendarsExist(tenant: string, named: { calendar: string | null; field: string }[]): Promise<void> {
    const unknown = new Set(
      await this.calendars.unknown(
        tenant,
        named.flatMap(({ calendar }) => (calendar === null ? [] : [calendar])),
      ),
    );
    const problems = named
      .filter(({ calendar }) => calendar !== null && unknown.has(calendar))
      .map(({ calendar, field }) => unknownCalendar(field, calendar!));
    if (problems.length > 0) throw new InvalidActionDataError(problems);
  }

  /** The dates of the tenant's calendar an action names, as they are now. */
  private async calendarDates(tenant: string, calendar: string | null): Promise<CalendarDates | undefined> {
    return calendar === null ? undefined : ((await this.calendars.datesOf(tenant, calendar)) ?? undefined);
  }

  /** A callback URL must be http(s) and not refused by the egress policy (400 naming the field). */
  private assertCallbackUrl(url: string | null | undefined, field: string): void {
    const problem = url == null ? null : webhookUrlProblem(url, field, this.egress, false);
    if (problem) throw new InvalidActionDataError([problem]);
  }
}

/** Counted against `maxActiveActions`: PENDING (paused or not) and IN_PROGRESS. */
function isActive(action: ActionEntity): boolean {
  return !TERMINAL_STATUSES.includes(action.status);
}

function unknownCalendar(field: string, name: string): string {
  return `${field}: no calendar is named ${name}; create it first with PUT /calendars/${name}`;
}

/** A calendar deleted between its check and the write that names it is refused like one that never was (400). */
async function refusingDeletedCalendars<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (isCalendarDeletedMeanwhile(error)) throw new InvalidActionDataError(['calendar: the calendar named was deleted meanwhile; create it again first']);
    throw error;
  }
}
