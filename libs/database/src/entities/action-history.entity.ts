import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn, PrimaryGeneratedColumn } from 'typeorm';
import { ActionStatus } from '@app/domain';
import { ActionEntity } from './action.entity';

/**
 * One lifecycle event of an action: creation (`from` null), a status change, or a change by a client.
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
}
