import { Injectable } from '@nestjs/common';
import { randomInt } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { PunctualConfig } from '@app/config';
import { ActionEntity, ActionsRepository, NewAction, TenantScope, ownedBy } from '@app/database';
import {
  ActionChanges,
  Clock,
  TERMINAL_STATUSES,
  Transition,
  TransitionRefusedError,
  UnlockedGuard,
  assertRepeatInterval,
  transition,
  unlockedGuard,
} from '@app/domain';
import { InvalidActionDataError, UnknownActionTypeError } from '@app/action-types';
import { targetCheckDeadline } from '@app/built-in-actions';
import { VerifiedKey } from '@app/signature';
import { ActionScheduler } from '@app/scheduling';
import { mapInSlices } from '../http/event-loop-slices';
import { ActionInputChecks, refusingDeletedCalendars } from './action-input-checks';
import { ActionQueries } from './action-queries.service';
import { CreateActionDto } from './dto/create-action.dto';
import { TenantQuotas } from './tenant-quotas';

/** An `Idempotency-Key` with the canonical hash of the body it came with. */
export interface IdempotencyClaim {
  key: string;
  requestHash: string;
}

/**
 * A change to one action as its door received it, named by the lifecycle event it becomes; the
 * moment and the rules in force are added at each try. `patched` is a client's change (409 while
 * locked), `by` the API key that signs what it sets (null for an operator in the console);
 * `deleted` removes a finished action, or a PENDING one outside the lock window; `canceled`,
 * `paused`, `resumed`, `skipRequested` and `retriedManually` are the owner's controls, each
 * refused (409) when the lifecycle does not allow it.
 */
export type ActionControl =
  | { readonly type: 'patched'; readonly changes: ActionChanges; readonly by: string | null }
  | { readonly type: 'deleted' }
  | { readonly type: 'canceled'; readonly note: string | null }
  | { readonly type: 'paused'; readonly note: string | null }
  | { readonly type: 'resumed' }
  | { readonly type: 'skipRequested'; readonly count: number }
  | { readonly type: 'retriedManually' };

/**
 * A tenant's pause, resume, skip or retry counts as one create against its rate (429 when none is
 * left), so a flood of them costs what a flood of creates does. Cancel never counts: stopping must
 * always work. The operator, in the console, acts for no tenant and counts against none.
 */
const RATE_COUNTED: ReadonlySet<ActionControl['type']> = new Set(['paused', 'resumed', 'skipRequested', 'retriedManually']);

/**
 * How long a change read-then-written may keep losing to concurrent ones before the client is told
 * to try again. A per-second cron on a busy machine changes with every claim and outcome, so a
 * fixed count of attempts could refuse its cancel; a time budget with a random pause between
 * attempts steps out of lockstep with the worker instead.
 */
const CHANGE_SETTLE_MS = 5_000;
const CHANGE_RETRY_PAUSE_MS = { min: 5, max: 50 };

/**
 * The client's changes to actions: validate, then let the lifecycle decide and the scheduler
 * persist and queue. A change is within a scope, as every read is (`ActionQueries`).
 */
@Injectable()
export class ActionCommands {
  constructor(
    private readonly actions: ActionsRepository,
    private readonly queries: ActionQueries,
    private readonly input: ActionInputChecks,
    private readonly scheduler: ActionScheduler,
    private readonly clock: Clock,
    private readonly config: PunctualConfig,
    private readonly quotas: TenantQuotas,
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
      const input = await this.input.toNewAction(dto, caller, 'data');
      await this.input.assertCalendarsExist(caller.tenant, [{ calendar: input.state.calendar, field: 'calendar' }]);
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
    // One wait for targets for the whole batch, however many items name one.
    const deadline = targetCheckDeadline();
    await mapInSlices(items, async (item, index) => {
      try {
        const input = await this.input.toNewAction(item, caller, `items.${index}.data`, deadline);
        inputs.push(input);
        calendars.push({ calendar: input.state.calendar, field: `items.${index}.calendar` });
      } catch (error) {
        if (error instanceof InvalidActionDataError) problems.push(...error.problems);
        else if (error instanceof UnknownActionTypeError) problems.push(`items.${index}.action: ${error.message}`);
        else throw error;
      }
    });
    if (problems.length > 0) throw new InvalidActionDataError(problems);
    await this.input.assertCalendarsExist(caller.tenant, calendars);
    return refusingDeletedCalendars(() => this.scheduler.createAll(inputs));
  }

  /**
   * Applies one control to the action as it is now: the lifecycle decides (a refusal is its reason,
   * 409), the scheduler persists and queues. Cancel stops the action for good, at once or once the
   * occurrence that runs or is locked ends; pause holds every later occurrence until resumed; skip
   * passes the next occurrences; retry puts a FAILED or NO_ACTION action back to PENDING, due now,
   * and takes a place among its tenant's active actions (429 when none is left).
   */
  async control(id: string, scope: TenantScope, control: ActionControl): Promise<ActionEntity> {
    const tenant = ownedBy(scope);
    if (tenant !== null && RATE_COUNTED.has(control.type)) await this.quotas.countControl(tenant);
    return this.changeUntilSettled(id, scope, async (current) => {
      const { change, guard } = await this.decide(current, control);
      // Only a change that names a calendar can meet one deleted meanwhile.
      return refusingDeletedCalendars(() => this.applyCounted(change, guard));
    });
  }

  /**
   * The transition a control makes of the action as read, and what storage must still find for it
   * to be written: a change or deletion only outside the lock window, any other control only in
   * the status it was read in.
   */
  private async decide(current: ActionEntity, control: ActionControl): Promise<{ change: Transition<ActionEntity>; guard: UnlockedGuard }> {
    const now = this.clock.now();
    const { lockWindowMs, catchUp, minRepeatIntervalMs } = this.config.scheduling;
    const asRead: UnlockedGuard = { statuses: [current.status] };
    switch (control.type) {
      case 'patched': {
        const guard = unlockedGuard(current, 'changed', now, lockWindowMs);
        await this.input.assertChanges(current, control.changes);
        const change = transition(current, { type: 'patched', now, changes: control.changes, by: control.by });
        assertRepeatInterval(change.after, minRepeatIntervalMs);
        return { change, guard };
      }
      case 'deleted':
        return { guard: unlockedGuard(current, 'deleted', now, lockWindowMs), change: transition(current, control) };
      case 'canceled':
      case 'paused':
        return { change: transition(current, { type: control.type, now, note: control.note, lockWindowMs }), guard: asRead };
      case 'skipRequested':
        return { change: transition(current, { type: control.type, now, count: control.count, lockWindowMs }), guard: asRead };
      case 'resumed':
        return { change: transition(current, { type: control.type, now, catchUp }), guard: asRead };
      case 'retriedManually':
        return { change: transition(current, { type: control.type, now }), guard: asRead };
    }
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
      const changed = await change(await this.queries.get(id, scope));
      if (changed) return changed;
      if (Date.now() >= giveUpAt) break;
      await sleep(randomInt(CHANGE_RETRY_PAUSE_MS.min, CHANGE_RETRY_PAUSE_MS.max));
    }
    throw new TransitionRefusedError(`Action ${id} is changing right now (it is being run or changed by someone else); try again`);
  }
}

/** Counted against `maxActiveActions`: PENDING (paused or not) and IN_PROGRESS. */
function isActive(action: ActionEntity): boolean {
  return !TERMINAL_STATUSES.includes(action.status);
}
