import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Each worker's declaration of itself, renewed by its heartbeat: the types its registry knows and
 * the types it serves. A worker is live while `live_until` is ahead of now(); a stopped or dead
 * worker's row stays (pruned well after UNKNOWN_TYPE_GRACE_MS), so its `live_until` tells when a
 * type was last known, which decides when an action of a type nobody knows may end NO_ACTION.
 */
export class WorkerFleet1763870001900 implements MigrationInterface {
  name = 'WorkerFleet1763870001900';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE workers (
      id uuid PRIMARY KEY,
      host text NOT NULL,
      pid integer NOT NULL,
      knows text[] NOT NULL,
      serves text[] NOT NULL,
      concurrency integer NOT NULL,
      running integer NOT NULL DEFAULT 0,
      started_at timestamptz NOT NULL DEFAULT now(),
      heartbeat_at timestamptz NOT NULL DEFAULT now(),
      live_until timestamptz NOT NULL,
      stopped_at timestamptz
    )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE workers`);
  }
}
