import { Column, CreateDateColumn, Entity, Index, PrimaryColumn, UpdateDateColumn } from 'typeorm';
import { ActionRetryPolicy, ActionStatus, DstPolicy, Frequency, MisfirePolicy } from '@app/domain';

/** Plain JSON object stored in a json column, which keeps its keys in the order they came. */
export type JsonObject = Record<string, unknown>;

@Entity({ name: 'actions' })
@Index('idx_actions_list', ['tenantId', 'executionTime', 'id'])
@Index('idx_actions_status_list', ['tenantId', 'status', 'executionTime', 'id'])
@Index('idx_actions_action_list', ['tenantId', 'action', 'executionTime', 'id'])
export class ActionEntity {
  @PrimaryColumn('uuid')
  id: string;

  /** The tenant whose key created it: only that tenant's keys see or change it. */
  @Column({ name: 'tenant_id', type: 'varchar', length: 64 })
  tenantId: string;

  @Column({ type: 'varchar', length: 64 })
  action: string;

  @Column({ type: 'varchar', length: 16 })
  status: ActionStatus;

  /** Scheduled time of the current occurrence; recurring runs advance from it, never from the run time. */
  @Column({ name: 'execution_time', type: 'timestamptz' })
  executionTime: Date;

  /** When the next attempt of the current occurrence is due: `executionTime`, or later while backing off. */
  @Column({ name: 'next_attempt_at', type: 'timestamptz' })
  nextAttemptAt: Date;

  /**
   * When the next attempt became runnable: the creation, or the last change that gave it a new due
   * time. The claim takes the later of this and `nextAttemptAt` as the time the attempt was due,
   * so a past executionTime, a resume or a retry after the due time never counts as firing lag.
   */
  @Column({ name: 'runnable_since', type: 'timestamptz' })
  runnableSince: Date;

  /**
   * The executionTime the client last set. MONTHLY steps count calendar months from it,
   * so Jan 31 → Feb 28 → Mar 31 keeps the original day whenever the month has it.
   */
  @Column({ name: 'schedule_anchor', type: 'timestamptz' })
  scheduleAnchor: Date;

  @Column({ type: 'json' })
  data: JsonObject;

  @Column({ type: 'json' })
  metadata: JsonObject;

  @Column({ type: 'boolean' })
  repeat: boolean;

  @Column({ type: 'varchar', length: 16, nullable: true })
  frequency: Frequency | null;

  /** Instead of `frequency`: a cron expression read in `timezone`. */
  @Column({ type: 'varchar', length: 200, nullable: true })
  cron: string | null;

  /** IANA zone of a repeating action's calendar; null for a one-off action. */
  @Column({ type: 'varchar', length: 64, nullable: true })
  timezone: string | null;

  @Column({ name: 'execution_remainder', type: 'integer', nullable: true })
  executionRemainder: number | null;

  /** No occurrence runs after this time. */
  @Column({ name: 'end_at', type: 'timestamptz', nullable: true })
  endAt: Date | null;

  /** The action's own retry policy; it wins over the type's and the global one. */
  @Column({ name: 'retry_policy', type: 'jsonb', nullable: true })
  retryPolicy: ActionRetryPolicy | null;

  @Column({ name: 'misfire_policy', type: 'varchar', length: 16 })
  misfirePolicy: MisfirePolicy;

  /** 1-based number of the current occurrence; with the id it forms the idempotency key `<id>:<occurrence>`. */
  @Column({ type: 'integer' })
  occurrence: number;

  /** Failed attempts of the current occurrence. */
  @Column({ name: 'retry_count', type: 'integer' })
  retryCount: number;

  @Column({ name: 'last_error', type: 'text', nullable: true })
  lastError: string | null;

  /**
   * Bumped whenever the action is given a new due time (create, patch, retry, next occurrence).
   * Queue job ids carry it, so a job queued for an older revision can never claim the action.
   */
  @Column({ type: 'integer' })
  revision: number;

  /** Fencing token of the attempt running now (IN_PROGRESS); an outcome must present it to be recorded. */
  @Column({ name: 'claim_token', type: 'uuid', nullable: true })
  claimToken: string | null;

  /** Until when the running attempt's claim holds, on Postgres's clock; renewed while the attempt runs. */
  @Column({ name: 'claimed_until', type: 'timestamptz', nullable: true })
  claimedUntil: Date | null;

  /** Receives this action's lifecycle webhooks, signed with the secret of `callbackKeyId`. */
  @Column({ name: 'callback_url', type: 'varchar', length: 2048, nullable: true })
  callbackUrl: string | null;

  /** The API key that created the action. Null for rows older than keys being recorded. */
  @Column({ name: 'api_key_id', type: 'varchar', length: 64, nullable: true })
  apiKeyId: string | null;

  /** The API key that last set `data`; its secret signs the action's outbound calls. */
  @Column({ name: 'data_key_id', type: 'varchar', length: 64, nullable: true })
  dataKeyId: string | null;

  /** The API key that last set `callbackUrl`; its secret signs the events sent there. */
  @Column({ name: 'callback_key_id', type: 'varchar', length: 64, nullable: true })
  callbackKeyId: string | null;

  /** When a cancellation was asked for while the current occurrence ran or was locked; it ends CANCELED after that occurrence. */
  @Column({ name: 'cancel_requested_at', type: 'timestamptz', nullable: true })
  cancelRequestedAt: Date | null;

  /** While paused: the first occurrence that does not start until the action is resumed; null when not paused. */
  @Column({ name: 'paused_from', type: 'integer', nullable: true })
  pausedFrom: number | null;

  /** Occurrences its owner asked to skip after the one the lock window covered; they are skipped when it ends. */
  @Column({ name: 'skip_pending', type: 'integer' })
  skipPending: number;

  /** How a wall-clock schedule meets daylight-saving changes; null for a one-off action. */
  @Column({ name: 'dst_policy', type: 'jsonb', nullable: true })
  dstPolicy: DstPolicy | null;

  /** The calendar whose dates a repeating action's schedule skips; null: none. */
  @Column({ type: 'varchar', length: 64, nullable: true })
  calendar: string | null;

  /** Each occurrence runs up to this long after its scheduled time; null: at its time. */
  @Column({ name: 'jitter_ms', type: 'integer', nullable: true })
  jitterMs: number | null;

  /** Fixes each occurrence's jitter (see `jitterOf`); set once, at creation. */
  @Column({ name: 'jitter_seed', type: 'integer' })
  jitterSeed: number;

  /** When the action reached a final status; retention counts from here. */
  @Column({ name: 'finished_at', type: 'timestamptz', nullable: true })
  finishedAt: Date | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
