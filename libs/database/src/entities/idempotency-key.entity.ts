import { Column, Entity, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { ActionEntity } from './action.entity';

/**
 * A client's `Idempotency-Key` for one create, unique per API key. The primary key
 * makes concurrent duplicates resolve in Postgres rather than by read-then-write.
 */
@Entity({ name: 'idempotency_keys' })
export class IdempotencyKeyEntity {
  @PrimaryColumn({ name: 'api_key_id', type: 'varchar', length: 64 })
  apiKeyId: string;

  @PrimaryColumn({ type: 'varchar', length: 255 })
  key: string;

  @Column({ name: 'action_id', type: 'uuid' })
  actionId: string;

  @ManyToOne(() => ActionEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'action_id' })
  action?: ActionEntity;

  /** Canonical hash of the body first sent with the key; null for keys stored before it was kept. */
  @Column({ name: 'request_hash', type: 'varchar', length: 64, nullable: true })
  requestHash: string | null;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
