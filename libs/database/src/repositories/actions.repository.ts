import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { ActionEntity } from '../entities/action.entity';
import { ActionListFilter, NewAction } from './action-query.types';
import { STATE_COLUMNS, STATE_FIELDS, columnValue } from './action-state-columns';
import { GroupCommit } from './group-commit';
import { blankEntity } from './hydrate';
import { IdempotencyKeyReusedError } from './idempotency-key-reused.error';
import { preparedQuery } from './prepared-query';
import { UnnestColumns } from './unnest-columns';

/** How long an `Idempotency-Key` keeps answering with the action it created. */
const IDEMPOTENCY_TTL = '24 hours';

const NEW_ACTION_COLUMNS = new UnnestColumns<NewAction>([
  ['id', 'uuid', (a) => a.id],
  ['action', 'varchar', (a) => a.action],
  ['api_key_id', 'varchar', (a) => a.apiKeyId],
  ...STATE_FIELDS.map(
    (field) =>
      [
        STATE_COLUMNS[field][0],
        STATE_COLUMNS[field][1] === 'jsonb' ? 'text' : STATE_COLUMNS[field][1],
        (a: NewAction) => columnValue(a.state, field),
      ] as const,
  ),
  ['history_note', 'text', (a) => a.history.note],
]);
const STATE_COLUMN_NAMES = Object.values(STATE_COLUMNS).map(([column]) => column);

/**
 * Inserts actions in their first lifecycle state, and their "created" history entries. It returns
 * only what Postgres adds (the creation time): the rest is what was sent, so a batch's rows are not
 * read back and parsed again.
 */
const INSERT_ACTIONS_SQL = `WITH inserted AS (
  INSERT INTO actions (id, action, api_key_id, ${STATE_COLUMN_NAMES.join(', ')})
  SELECT n.id, n.action, n.api_key_id, ${Object.values(STATE_COLUMNS)
    .map(([column, sqlType]) => (sqlType === 'jsonb' ? `n.${column}::jsonb` : `n.${column}`))
    .join(', ')}
  FROM ${NEW_ACTION_COLUMNS.rows('n')}
  RETURNING id, occurrence, status, created_at, updated_at
), history AS (
  INSERT INTO action_history (action_id, occurrence, from_status, to_status, attempt, note, at)
  SELECT i.id, i.occurrence, NULL, i.status, 0, n.history_note, clock_timestamp()
  FROM inserted i JOIN ${NEW_ACTION_COLUMNS.rows('n')} USING (id)
)
SELECT id, created_at, updated_at FROM inserted`;

/** Outcome of a create that carried an `Idempotency-Key`. */
export type IdempotentCreate = { created: true; action: ActionEntity } | { created: false; action: ActionEntity };

/** Client-facing reads and writes of actions. Every state change is one conditional statement. */
@Injectable()
export class ActionsRepository {
  private readonly singleCreates = new GroupCommit<NewAction, ActionEntity>((actions) => this.createMany(actions));

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Stores actions and their creation history in one statement: all or nothing. */
  createMany(actions: NewAction[]): Promise<ActionEntity[]> {
    return this.insert(this.dataSource, actions);
  }

  /** Stores one action; concurrent single creates share one statement (see GroupCommit). */
  create(action: NewAction): Promise<ActionEntity> {
    return this.singleCreates.submit(action);
  }

  /**
   * Stores one action unless `(apiKeyId, key)` already created one within 24 h; then returns that one,
   * or refuses when that first create had another body (`requestHash` differs).
   * The key's primary key serialises concurrent duplicates: the losers wait for the winner's commit,
   * roll their own insert back and read the winner's action and hash.
   */
  async createIdempotent(apiKeyId: string, key: string, action: NewAction, requestHash: string): Promise<IdempotentCreate> {
    const created = await this.dataSource
      .transaction(async (manager) => {
        const [entity] = await this.insert(manager, [action]);
        const claimed: unknown[] = await manager.query(
          `INSERT INTO idempotency_keys (api_key_id, key, action_id, request_hash, created_at) VALUES ($1, $2, $3, $4, now())
         ON CONFLICT (api_key_id, key) DO UPDATE SET action_id = EXCLUDED.action_id, request_hash = EXCLUDED.request_hash, created_at = now()
           WHERE idempotency_keys.created_at < now() - interval '${IDEMPOTENCY_TTL}'
         RETURNING action_id`,
          [apiKeyId, key, entity.id, requestHash],
        );
        if (claimed.length === 0) throw new DuplicateIdempotencyKey();
        return entity;
      })
      .catch((error: unknown) => {
        if (error instanceof DuplicateIdempotencyKey) return null;
        throw error;
      });
    if (created) return { created: true, action: created };
    const rows: { action_id: string; request_hash: string | null }[] = await this.dataSource.query(
      `SELECT action_id, request_hash FROM idempotency_keys WHERE api_key_id = $1 AND key = $2`,
      [apiKeyId, key],
    );
    // A key stored before hashes were kept has none: it answers as before until it expires.
    if (rows[0] && rows[0].request_hash !== null && rows[0].request_hash !== requestHash) throw new IdempotencyKeyReusedError(key);
    const existing = rows[0] && (await this.findById(rows[0].action_id));
    if (!existing) throw new Error(`Idempotency key ${key} refers to no action`);
    return { created: false, action: existing };
  }

  findById(id: string): Promise<ActionEntity | null> {
    return this.dataSource.getRepository(ActionEntity).findOneBy({ id });
  }

  /** One page ordered by (executionTime, id), either way, strictly after the given keyset position. */
  list(filter: ActionListFilter): Promise<ActionEntity[]> {
    const direction = filter.descending ? 'DESC' : 'ASC';
    const query = this.dataSource
      .getRepository(ActionEntity)
      .createQueryBuilder('a')
      .orderBy('a.execution_time', direction)
      .addOrderBy('a.id', direction)
      .limit(filter.limit);
    if (filter.status) query.andWhere('a.status = :status', { status: filter.status });
    if (filter.action) query.andWhere('a.action = :action', { action: filter.action });
    if (filter.dueFrom) query.andWhere('a.execution_time >= :dueFrom', { dueFrom: filter.dueFrom });
    if (filter.dueBefore) query.andWhere('a.execution_time < :dueBefore', { dueBefore: filter.dueBefore });
    if (filter.after) {
      query.andWhere(`(a.execution_time, a.id) ${filter.descending ? '<' : '>'} (:afterTime, :afterId)`, {
        afterTime: filter.after.executionTime,
        afterId: filter.after.id,
      });
    }
    return query.getMany();
  }

  /**
   * Inserts the actions and their "created" history entries in one statement, whatever their
   * number; inside the caller's transaction when given one.
   */
  private async insert(runner: DataSource | EntityManager, actions: NewAction[]): Promise<ActionEntity[]> {
    const values = NEW_ACTION_COLUMNS.values(actions);
    const rows: InsertedRow[] =
      runner instanceof DataSource
        ? await preparedQuery<InsertedRow>(runner, 'punctual_insert_actions', INSERT_ACTIONS_SQL, values)
        : await runner.query<InsertedRow[]>(INSERT_ACTIONS_SQL, values);
    const metadata = this.dataSource.getMetadata(ActionEntity);
    const byId = new Map(rows.map((row) => [row.id, row]));
    return actions.map((a) => storedAction(blankEntity<ActionEntity>(metadata), a, byId.get(a.id)!));
  }
}

class DuplicateIdempotencyKey extends Error {}

/** What the insert returns of each action: the columns Postgres fills. */
interface InsertedRow {
  id: string;
  created_at: Date;
  updated_at: Date;
}

/** The entity of an action just inserted: what was sent, unclaimed and unfinished, with Postgres's times. */
function storedAction(entity: ActionEntity, sent: NewAction, row: InsertedRow): ActionEntity {
  return Object.assign(entity, sent.state, {
    id: sent.id,
    action: sent.action,
    apiKeyId: sent.apiKeyId,
    claimToken: null,
    claimedUntil: null,
    finishedAt: null,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  });
}
