import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { ALL_STATUSES, ActionStatus, TERMINAL_STATUSES } from '../entities/action-status';
import { ActionEntity } from '../entities/action.entity';
import { ActionChanges, ActionListFilter, ActionStats, NewAction } from './action-query.types';
import { GroupCommit } from './group-commit';
import { appendHistorySql, HistoryRepository } from './history.repository';
import { hydrate } from './hydrate';
import { preparedQuery } from './prepared-query';
import { UnnestColumns } from './unnest-columns';

/** How long an `Idempotency-Key` keeps answering with the action it created. */
const IDEMPOTENCY_TTL = '24 hours';

const NEW_ACTION_COLUMNS = new UnnestColumns<NewAction>([
  ['id', 'uuid', (a) => a.id],
  ['action', 'varchar', (a) => a.action],
  ['at', 'timestamptz', (a) => a.executionTime],
  ['data', 'text', (a) => JSON.stringify(a.data)],
  ['metadata', 'text', (a) => JSON.stringify(a.metadata)],
  ['repeat', 'boolean', (a) => a.repeat],
  ['frequency', 'varchar', (a) => a.frequency],
  ['remainder', 'integer', (a) => a.executionRemainder],
  ['misfire', 'varchar', (a) => a.misfirePolicy],
]);

/** Inserts actions and their "created" history entries. */
const INSERT_ACTIONS_SQL = `WITH inserted AS (
  INSERT INTO actions (id, action, status, execution_time, next_attempt_at, schedule_anchor, data, metadata,
                       repeat, frequency, execution_remainder, misfire_policy)
  SELECT n.id, n.action, 'PENDING', n.at, n.at, n.at, n.data::jsonb, n.metadata::jsonb,
         n.repeat, n.frequency, n.remainder, n.misfire
  FROM ${NEW_ACTION_COLUMNS.rows('n')}
  RETURNING *
), history AS (
  ${appendHistorySql('inserted', { occurrence: 'occurrence', from: 'NULL', to: `'PENDING'`, attempt: '0', note: `'created'` })}
)
SELECT * FROM inserted`;

/** Outcome of a create that carried an `Idempotency-Key`. */
export type IdempotentCreate = { created: true; action: ActionEntity } | { created: false; action: ActionEntity };

/** Client-facing reads and writes of actions. Every state change is one conditional statement. */
@Injectable()
export class ActionsRepository {
  private readonly singleCreates = new GroupCommit<NewAction, ActionEntity>((actions) => this.createMany(actions));

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly history: HistoryRepository,
  ) {}

  /** Stores actions and their creation history in one statement: all or nothing. */
  createMany(actions: NewAction[]): Promise<ActionEntity[]> {
    return this.insert(this.dataSource, actions);
  }

  /** Stores one action; concurrent single creates share one statement (see GroupCommit). */
  create(action: NewAction): Promise<ActionEntity> {
    return this.singleCreates.submit(action);
  }

  /**
   * Stores one action unless `(apiKeyId, key)` already created one within 24 h; then returns that one.
   * The key's primary key serialises concurrent duplicates: the losers wait for the winner's commit,
   * roll their own insert back and read the winner's action.
   */
  async createIdempotent(apiKeyId: string, key: string, action: NewAction): Promise<IdempotentCreate> {
    const created = await this.dataSource.transaction(async (manager) => {
      const [entity] = await this.insert(manager, [action]);
      const claimed: unknown[] = await manager.query(
        `INSERT INTO idempotency_keys (api_key_id, key, action_id, created_at) VALUES ($1, $2, $3, now())
         ON CONFLICT (api_key_id, key) DO UPDATE SET action_id = EXCLUDED.action_id, created_at = now()
           WHERE idempotency_keys.created_at < now() - interval '${IDEMPOTENCY_TTL}'
         RETURNING action_id`,
        [apiKeyId, key, entity.id],
      );
      if (claimed.length === 0) throw new DuplicateIdempotencyKey();
      return entity;
    }).catch((error: unknown) => {
      if (error instanceof DuplicateIdempotencyKey) return null;
      throw error;
    });
    if (created) return { created: true, action: created };
    const rows: { action_id: string }[] = await this.dataSource.query(
      `SELECT action_id FROM idempotency_keys WHERE api_key_id = $1 AND key = $2`,
      [apiKeyId, key],
    );
    const existing = rows[0] && (await this.findById(rows[0].action_id));
    if (!existing) throw new Error(`Idempotency key ${key} refers to no action`);
    return { created: false, action: existing };
  }

  findById(id: string): Promise<ActionEntity | null> {
    return this.dataSource.getRepository(ActionEntity).findOneBy({ id });
  }

  /** One page ordered by (executionTime, id), strictly after the given keyset position. */
  list(filter: ActionListFilter): Promise<ActionEntity[]> {
    const query = this.dataSource
      .getRepository(ActionEntity)
      .createQueryBuilder('a')
      .orderBy('a.execution_time', 'ASC')
      .addOrderBy('a.id', 'ASC')
      .limit(filter.limit);
    if (filter.status) query.andWhere('a.status = :status', { status: filter.status });
    if (filter.action) query.andWhere('a.action = :action', { action: filter.action });
    if (filter.after) {
      query.andWhere('(a.execution_time, a.id) > (:afterTime, :afterId)', {
        afterTime: filter.after.executionTime,
        afterId: filter.after.id,
      });
    }
    return query.getMany();
  }

  async stats(): Promise<ActionStats> {
    const rows: { action: string; status: ActionStatus; count: string }[] = await this.dataSource.query(
      `SELECT action, status, count(*) AS count FROM actions GROUP BY action, status ORDER BY action, status`,
    );
    const byStatus = Object.fromEntries(ALL_STATUSES.map((s) => [s, 0])) as Record<ActionStatus, number>;
    const byAction: ActionStats['byAction'] = {};
    let total = 0;
    for (const row of rows) {
      const count = Number(row.count);
      total += count;
      byStatus[row.status] += count;
      byAction[row.action] = { ...byAction[row.action], [row.status]: count };
    }
    return { total, byStatus, byAction };
  }

  /**
   * Applies a client's change if the action is still PENDING and due after `lockedBefore`.
   * A new due time bumps the revision so that a job queued for the old one cannot claim it.
   * Returns null when nothing matched (missing, or locked: the caller tells which).
   */
  async updateUnlocked(id: string, changes: ActionChanges, lockedBefore: Date, note: string): Promise<ActionEntity | null> {
    return this.dataSource.transaction(async (manager) => {
      const assignments: string[] = [];
      const params: unknown[] = [id, lockedBefore];
      const set = (column: string, value: unknown, cast = '') => {
        params.push(value);
        assignments.push(`${column} = $${params.length}${cast}`);
      };
      if (changes.executionTime) {
        set('execution_time', changes.executionTime);
        set('next_attempt_at', changes.executionTime);
        set('schedule_anchor', changes.executionTime);
        assignments.push('revision = revision + 1');
      }
      if (changes.data) set('data', JSON.stringify(changes.data), '::jsonb');
      if (changes.metadata) set('metadata', JSON.stringify(changes.metadata), '::jsonb');
      if (changes.repeat !== undefined) set('repeat', changes.repeat);
      if (changes.frequency !== undefined) set('frequency', changes.frequency);
      if (changes.executionRemainder !== undefined) set('execution_remainder', changes.executionRemainder);
      if (changes.misfirePolicy !== undefined) set('misfire_policy', changes.misfirePolicy);
      assignments.push('updated_at = now()');
      const [rows] = await manager.query(
        `UPDATE actions SET ${assignments.join(', ')}
         WHERE id = $1 AND status = 'PENDING' AND execution_time > $2 RETURNING *`,
        params,
      );
      if (rows.length === 0) return null;
      const updated = hydrate<ActionEntity>(manager.connection.getMetadata(ActionEntity), rows[0]);
      await this.history.append(manager, [{ action: updated, from: ActionStatus.Pending, to: ActionStatus.Pending, attempt: 0, note }]);
      return updated;
    });
  }

  /** Deletes a finished action, or a PENDING one due after `lockedBefore`. Returns whether a row went. */
  async deleteUnlocked(id: string, lockedBefore: Date): Promise<boolean> {
    const [, affected] = await this.dataSource.query(
      `DELETE FROM actions WHERE id = $1
         AND (status = ANY($2) OR (status = 'PENDING' AND execution_time > $3))`,
      [id, TERMINAL_STATUSES, lockedBefore],
    );
    return affected > 0;
  }

  /** FAILED or NO_ACTION → PENDING, the same occurrence due at `dueAt`, attempts counted afresh. */
  async requeueFinished(id: string, dueAt: Date): Promise<ActionEntity | null> {
    return this.dataSource.transaction(async (manager) => {
      const [rows] = await manager.query(
        `UPDATE actions SET status = 'PENDING', retry_count = 0, next_attempt_at = $2, revision = revision + 1,
           finished_at = NULL, updated_at = now()
         WHERE id = $1 AND status IN ('FAILED', 'NO_ACTION')
         RETURNING *, (SELECT status FROM actions WHERE id = $1) AS previous_status`, // the subquery sees the row before this update
        [id, dueAt],
      );
      if (rows.length === 0) return null;
      const action = hydrate<ActionEntity>(manager.connection.getMetadata(ActionEntity), rows[0]);
      await this.history.append(manager, [
        { action, from: rows[0].previous_status, to: ActionStatus.Pending, attempt: 0, note: 'manual retry' },
      ]);
      return action;
    });
  }

  /**
   * Inserts the actions and their "created" history entries in one statement, whatever their
   * number; inside the caller's transaction when given one.
   */
  private async insert(runner: DataSource | EntityManager, actions: NewAction[]): Promise<ActionEntity[]> {
    const values = NEW_ACTION_COLUMNS.values(actions);
    const rows: Record<string, unknown>[] =
      runner instanceof DataSource ? await preparedQuery(runner, 'punctual_insert_actions', INSERT_ACTIONS_SQL, values) : await runner.query(INSERT_ACTIONS_SQL, values);
    const metadata = this.dataSource.getMetadata(ActionEntity);
    const byId = new Map(rows.map((row) => [row.id as string, hydrate<ActionEntity>(metadata, row)]));
    return actions.map((a) => byId.get(a.id)!);
  }
}

class DuplicateIdempotencyKey extends Error {}
