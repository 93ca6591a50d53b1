import { Injectable } from '@nestjs/common';
import { randomInt, randomUUID } from 'node:crypto';
import { PunctualConfig } from '@app/config';
import { ActionEntity, CalendarsRepository, NewAction, isCalendarDeletedMeanwhile } from '@app/database';
import { ActionChanges, Clock, MisfirePolicy, assertRepeatInterval, newActionState } from '@app/domain';
import { ActionTypeRegistry, InvalidActionDataError, MessagePermissions } from '@app/action-types';
import { GrpcTargetCheck, TargetCheckDeadline, targetCheckDeadline } from '@app/built-in-actions';
import { EgressPolicy } from '@app/outbound';
import { VerifiedKey } from '@app/signature';
import { webhookUrlProblem } from '@app/webhooks';
import { CreateActionDto } from './dto/create-action.dto';

/**
 * What a create or a change must pass before the lifecycle sees it: the type's data schema, the
 * tenant's message grants and a GRPC target's methods, the callback URL's egress policy, the calendars it names. Each
 * refusal is a 400 naming the field.
 */
@Injectable()
export class ActionInputChecks {
  constructor(
    private readonly calendars: CalendarsRepository,
    private readonly types: ActionTypeRegistry,
    private readonly clock: Clock,
    private readonly config: PunctualConfig,
    private readonly egress: EgressPolicy,
    private readonly messaging: MessagePermissions,
    private readonly grpcTargets: GrpcTargetCheck,
  ) {}

  /**
   * A create body as the action it makes, checked as a create is; `dataPath` names its data field in
   * the problems. The items of one request share `deadline`, for the checks that wait on a target.
   */
  async toNewAction(dto: CreateActionDto, caller: VerifiedKey, dataPath: string, deadline = targetCheckDeadline()): Promise<NewAction> {
    await this.validData(caller.tenant, dto.action, dto.data, dataPath, deadline);
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

  /** The fields of a client's change that are checked beside the lifecycle's rules. */
  async assertChanges(current: ActionEntity, changes: ActionChanges): Promise<void> {
    if (changes.data) await this.validData(current.tenantId, current.action, changes.data);
    this.assertCallbackUrl(changes.callbackUrl, 'callbackUrl');
    await this.assertCalendarsExist(current.tenantId, [{ calendar: changes.calendar ?? null, field: 'calendar' }]);
  }

  /** Refuses (400, naming each field) a calendar name that names no calendar; asks nothing when none is named. */
  async assertCalendarsExist(tenant: string, named: { calendar: string | null; field: string }[]): Promise<void> {
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

  /** Refuses (400, naming each field) data that does not fit its type, a message its tenant may not send, or a gRPC method its target does not serve. */
  private async validData(tenant: string, type: string, data: object, path = 'data', deadline?: TargetCheckDeadline): Promise<void> {
    await this.types.validateData(type, data, path);
    await this.messaging.assertAllowed(tenant, type, data, path);
    await this.grpcTargets.assertCallable(type, data, path, deadline);
  }

  /** A callback URL must be http(s) and not refused by the egress policy (400 naming the field). */
  private assertCallbackUrl(url: string | null | undefined, field: string): void {
    const problem = url == null ? null : webhookUrlProblem(url, field, this.egress, false);
    if (problem) throw new InvalidActionDataError([problem]);
  }
}

export function unknownCalendar(field: string, name: string): string {
  return `${field}: no calendar is named ${name}; create it first with PUT /calendars/${name}`;
}

/** A calendar deleted between its check and the write that names it is refused like one that never was (400). */
export async function refusingDeletedCalendars<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (isCalendarDeletedMeanwhile(error)) throw new InvalidActionDataError(['calendar: the calendar named was deleted meanwhile; create it again first']);
    throw error;
  }
}
