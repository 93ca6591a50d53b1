import { ApiProperty } from '@nestjs/swagger';
import { ActionEntity, HistoryRecord, JsonObject, actionResource } from '@app/database';
import { ActionStatus, Frequency, MisfirePolicy } from '@app/domain';
import {
  ActionBatch,
  ActionPage,
  ActionResource,
  ActionStats,
  ActionStatusName,
  DstPolicyBody,
  FrequencyName,
  HistoryEntry,
  MisfirePolicyName,
  RetryPolicyBody,
} from '@punctual/contract';

export class ActionResponse implements ActionResource {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ example: 'SEND_NOTIFICATION' }) action: string;
  @ApiProperty({ enum: ActionStatus }) status: ActionStatusName;
  @ApiProperty({ format: 'date-time', description: 'Scheduled time of the current occurrence' }) executionTime: string;
  @ApiProperty({ type: 'object', additionalProperties: true }) data: JsonObject;
  @ApiProperty({ type: 'object', additionalProperties: true }) metadata: JsonObject;
  @ApiProperty() repeat: boolean;
  @ApiProperty({ enum: Frequency, nullable: true }) frequency: FrequencyName | null;
  @ApiProperty({ type: 'integer', nullable: true }) executionRemainder: number | null;
  @ApiProperty({ type: 'string', nullable: true, example: '0 9 * * MON-FRI', description: 'Null unless the action repeats by cron' }) cron: string | null;
  @ApiProperty({
    type: 'string',
    nullable: true,
    example: 'Europe/Berlin',
    description: 'Zone of the schedule (UTC unless given); null for a one-off action',
  })
  timezone: string | null;
  @ApiProperty({ type: 'string', format: 'date-time', nullable: true, description: 'No occurrence runs after it' }) endAt: string | null;
  @ApiProperty({ enum: MisfirePolicy, nullable: true, description: 'Null for a one-off action' }) misfirePolicy: MisfirePolicyName | null;
  @ApiProperty({ type: 'object', nullable: true, additionalProperties: true, description: "The action's own retry policy, or null" })
  retryPolicy: RetryPolicyBody | null;
  @ApiProperty({ type: 'string', nullable: true, description: "Receives this action's lifecycle webhooks" }) callbackUrl: string | null;
  @ApiProperty({ type: 'integer' }) retryCount: number;
  @ApiProperty({ type: 'string', nullable: true }) lastError: string | null;
  @ApiProperty({ type: 'integer', description: 'Current occurrence, 1-based; the idempotency key is `<id>:<occurrence>`' })
  occurrence: number;
  @ApiProperty({ format: 'date-time', description: 'When the next attempt is due (later than executionTime while backing off)' })
  nextAttemptAt: string;
  @ApiProperty({
    type: 'string',
    format: 'date-time',
    nullable: true,
    description: 'Set while a cancellation waits for the running or locked occurrence to end; the action is then CANCELED',
  })
  cancelRequestedAt: string | null;
  @ApiProperty({
    description: 'Paused by its owner: no attempt of a later occurrence starts until POST /actions/:id/resume (a running or locked one finishes first)',
  })
  paused: boolean;
  @ApiProperty({ type: 'integer', nullable: true, description: 'Each occurrence runs up to this many ms after its time, by a delay fixed for it' })
  jitterMs: number | null;
  @ApiProperty({
    type: 'object',
    properties: { gap: { type: 'string', enum: ['shift', 'skip'] }, overlap: { type: 'string', enum: ['first', 'last', 'both'] } },
    nullable: true,
    description: "A wall-clock schedule's rule for daylight-saving changes; null for a one-off action",
  })
  dstPolicy: DstPolicyBody | null;
  @ApiProperty({ type: 'string', nullable: true, description: 'The calendar whose dates the schedule skips; null: none' })
  calendar: string | null;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ format: 'date-time' }) updatedAt: string;

  static from(entity: ActionEntity): ActionResponse {
    return actionResource(entity);
  }
}

export class ActionPageResponse implements ActionPage {
  @ApiProperty({ type: [ActionResponse] }) items: ActionResponse[];
  @ApiProperty({ type: 'string', nullable: true, description: 'Pass as `cursor` for the next page; null on the last page' })
  nextCursor: string | null;
}

export class ActionBatchResponse implements ActionBatch {
  @ApiProperty({ type: [ActionResponse] }) items: ActionResponse[];
}

export class ActionStatsResponse implements ActionStats {
  @ApiProperty({ type: 'integer' }) total: number;
  @ApiProperty({
    type: 'object',
    additionalProperties: { type: 'integer' },
    example: { PENDING: 3, IN_PROGRESS: 0, COMPLETED: 1, FAILED: 0, NO_ACTION: 0, CANCELED: 0 },
  })
  byStatus: Record<ActionStatusName, number>;
  @ApiProperty({
    type: 'object',
    additionalProperties: { type: 'object', additionalProperties: { type: 'integer' } },
    example: { HTTP_REQUEST: { PENDING: 3 } },
  })
  byAction: Record<string, Partial<Record<ActionStatusName, number>>>;
}

export class HistoryEntryResponse implements HistoryEntry {
  @ApiProperty({ format: 'date-time' }) at: string;
  @ApiProperty({ enum: ActionStatus, nullable: true }) from: ActionStatusName | null;
  @ApiProperty({ enum: ActionStatus }) to: ActionStatusName;
  @ApiProperty({ type: 'integer' }) occurrence: number;
  @ApiProperty({ type: 'integer', description: 'Attempt within the occurrence (1 = first try); 0 when not an attempt' }) attempt: number;
  @ApiProperty({ type: 'string', nullable: true }) note: string | null;

  static from(entry: HistoryRecord): HistoryEntryResponse {
    return { at: entry.at, from: entry.from, to: entry.to, occurrence: entry.occurrence, attempt: entry.attempt, note: entry.note };
  }
}
