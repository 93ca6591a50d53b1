import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn, PrimaryGeneratedColumn } from 'typeorm';
import { ActionStatus, AttemptOutcome, HistoryEvent } from '@app/domain';
import { ActionEntity } from './action.entity';

/**
 * One lifecycle event of an action: creation (`from` null), a status change, or a change by a client.
 * It records the event that wrote it, and how an attempt ended on the entry that ends one.
 * The table is partitioned by week of `at`, which is therefore part of the primary key.
 */
@Entity({ name: 'action_history' })
@Index('idx_action_history_action', ['actionId', 'id'])
@Index('idx_action_history_at', ['at'])
export class ActionHistoryEntity {
  @PrimaryGeneratedColumn({ type: 'bigint' })
  id: string;

  @Column({ name: 'action_id', type: 'uuid' })
  actionId: string;

  @ManyToOne(() => ActionEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'action_id' })
  action?: ActionEntity;

  @PrimaryColumn({ type: 'timestamptz' })
  at: Date;

  @Column({ name: 'from_status', type: 'varchar', length: 16, nullable: true })
  from: ActionStatus | null;

  @Column({ name: 'to_status', type: 'varchar', length: 16 })
  to: ActionStatus;

  @Column({ type: 'integer' })
  occurrence: number;

  /** Attempt number within the occurrence (1 = first try); 0 for entries that are not attempts. */
  @Column({ type: 'integer' })
  attempt: number;

  @Column({ type: 'text', nullable: true })
  note: string | null;

  /** On a claim entry (PENDING → IN_PROGRESS), when that attempt was due; `at` minus this is its firing lag. Null on other entries. */
  @Column({ name: 'due_at', type: 'timestamptz', nullable: true })
  dueAt: Date | null;

  /**
   * The event that wrote the entry: `created`, or the lifecycle event applied (the entries of the
   * occurrences it skipped record it too). `unattributed`: an entry written before events were
   * recorded, whose statuses and note named none.
   */
  @Column({ type: 'varchar', length: 24 })
  event: HistoryEvent | 'unattributed';

  /** On the entry of the event that ended an attempt (or a due occurrence, as NO_ACTION), how it ended; null on every other entry. */
  @Column({ type: 'varchar', length: 16, nullable: true })
  outcome: AttemptOutcome | null;
}
