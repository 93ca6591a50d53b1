import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';

/** What a worker declares of itself at each heartbeat. */
export interface WorkerDeclaration {
  id: string;
  host: string;
  pid: number;
  /** The action types of its registry: what it can validate and name, served or not. */
  knows: readonly string[];
  /** The action types it consumes (`WORKER_ACTIONS`, or all it knows). */
  serves: readonly string[];
  concurrency: number;
  /** Attempts it runs at the moment of the heartbeat. */
  running: number;
}

/** A live worker, as the console shows it. */
export interface LiveWorker extends WorkerDeclaration {
  startedAt: Date;
  heartbeatAt: Date;
}

/** Whether live workers know a type, and whether one of them serves it. */
export interface TypeCoverage {
  known: boolean;
  served: boolean;
}

const LIVE = `live_until > now()`;

/**
 * The workers' declarations (`workers`): each worker's row is renewed by its heartbeat and lives
 * until `live_until`, moved to the moment of its stop by a graceful shutdown. Rows of stopped or dead
 * workers stay until `prune`, so that "when did a live worker last know this type" can be answered.
 */
@Injectable()
export class WorkersRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Records `worker` as live for `livenessMs` from now on Postgres's clock; a stopped worker's row stays stopped. */
  async beat(worker: WorkerDeclaration, livenessMs: number): Promise<void> {
    await this.dataSource.query(
      `INSERT INTO workers (id, host, pid, knows, serves, concurrency, running, live_until)
       VALUES ($1, $2, $3, $4, $5, $6, $7, now() + $8 * interval '1 millisecond')
       ON CONFLICT (id) DO UPDATE SET knows = excluded.knows, serves = excluded.serves, concurrency = excluded.concurrency,
         running = excluded.running, heartbeat_at = now(), live_until = excluded.live_until
       WHERE workers.stopped_at IS NULL`,
      [worker.id, worker.host, worker.pid, worker.knows, worker.serves, worker.concurrency, worker.running, livenessMs],
    );
  }

  /** A graceful stop: the worker is no longer live from now, and no late heartbeat brings it back. */
  async stop(id: string): Promise<void> {
    await this.dataSource.query(`UPDATE workers SET stopped_at = now(), live_until = least(live_until, now()) WHERE id = $1`, [id]);
  }

  /** Every live worker, longest running first. */
  async live(): Promise<LiveWorker[]> {
    const rows: Record<string, unknown>[] = await this.dataSource.query(
      `SELECT id, host, pid, knows, serves, concurrency, running, started_at, heartbeat_at FROM workers WHERE ${LIVE} ORDER BY started_at, id`,
    );
    return rows.map((row) => ({
      id: row.id as string,
      host: row.host as string,
      pid: row.pid as number,
      knows: row.knows as string[],
      serves: row.serves as string[],
      concurrency: row.concurrency as number,
      running: row.running as number,
      startedAt: row.started_at as Date,
      heartbeatAt: row.heartbeat_at as Date,
    }));
  }

  /** The types some live worker serves: the ones the promoter may queue again. */
  async servedTypes(manager: EntityManager): Promise<string[]> {
    const rows: { type: string }[] = await manager.query(`SELECT DISTINCT unnest(serves) AS type FROM workers WHERE ${LIVE} ORDER BY type`);
    return rows.map((row) => row.type);
  }

  /** Whether live workers know `type`, and serve it. */
  async coverageOf(type: string): Promise<TypeCoverage> {
    const [row]: TypeCoverage[] = await this.dataSource.query(
      `SELECT coalesce(bool_or(knows @> ARRAY[$1]::text[]), false) AS known, coalesce(bool_or(serves @> ARRAY[$1]::text[]), false) AS served
       FROM workers WHERE ${LIVE}`,
      [type],
    );
    return row;
  }

  /**
   * Forgets workers not live for `keepMs`. Once the last worker that knew a type stopped living
   * UNKNOWN_TYPE_GRACE_MS ago, its row no longer changes what the promoter decides, so `keepMs`
   * only needs to exceed the grace. Returns how many were forgotten.
   */
  async prune(keepMs: number): Promise<number> {
    // For UPDATE and DELETE, TypeORM's Postgres driver answers [returned rows, affected row count].
    const [, deleted]: [unknown[], number] = await this.dataSource.query(`DELETE FROM workers WHERE live_until < now() - $1 * interval '1 millisecond'`, [
      keepMs,
    ]);
    return deleted;
  }
}
