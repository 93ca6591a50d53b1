import { Inject, Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { Queue } from 'bullmq';
import Redis from 'ioredis';
import { PunctualConfig, queuePrefixOf } from '@app/config';
import { QueueableAction } from '@app/database';
import { GroupCommit } from '@app/runtime';
import { Clock, heldByPause } from '@app/domain';
import { ActionJobData, jobIdFor } from './action-job';
import { fairShares } from './fair-share';
import { queueClient } from './queue-client';
import { queueDefaults } from './queue-defaults';
import { ActionQueuesPort } from './action-queues.port';

/**
 * Actions due a little beyond the horizon are queued right away too: the promoter only
 * sees committed rows, so one committed just after its scan must not fall between the two.
 */
const HORIZON_MARGIN_MS = 60_000;

/** The queue of each action type this process knows, built once by the scheduling module. */
export const QUEUES_BY_TYPE = Symbol('QUEUES_BY_TYPE');
export type QueuesByType = ReadonlyMap<string, Queue<ActionJobData>>;

/**
 * Puts actions on their type's delayed queue and takes stale jobs off it. A type this process does
 * not know still has a queue (`<prefix>:{TYPE}`, made on first use and closed at shutdown): in a
 * rolling deploy the worker that serves a new type may be the only one that knows it, and the
 * promoter, wherever it runs, queues that type's actions for it.
 */
@Injectable()
export class ActionQueues implements ActionQueuesPort, OnApplicationShutdown {
  private readonly logger = new Logger(ActionQueues.name);
  /** Queues of types this process does not know, by type. */
  private readonly madeOnDemand = new Map<string, Queue<ActionJobData>>();
  /**
   * Enqueues made while an earlier one is on its way to Redis (concurrent single creates, outcomes)
   * go out together: one ranking pipeline and one `addBulk` for many. A Redis failure fails them
   * all at once; the promoter queues them later.
   */
  private readonly grouped = new GroupCommit<readonly QueueableAction[], void>(
    async (groups) => {
      await this.add(groups.flat());
      return groups.map(() => undefined);
    },
    64,
    () => false,
  );

  constructor(
    @Inject(QUEUES_BY_TYPE) private readonly queues: QueuesByType,
    private readonly clock: Clock,
    private readonly config: PunctualConfig,
  ) {}

  /** The queue of `type`, made on first use when this process does not know the type. */
  queueFor(type: string): Queue<ActionJobData> {
    const known = this.queues.get(type) ?? this.madeOnDemand.get(type);
    if (known) return known;
    const queue = new Queue<ActionJobData>(type, { ...queueDefaults(this.config), prefix: queuePrefixOf(this.config.redis.queuePrefix, type) });
    queue.on('error', () => undefined); // as the registered queues: an outage is met as a failed add
    this.madeOnDemand.set(type, queue);
    return queue;
  }

  async onApplicationShutdown(): Promise<void> {
    await Promise.all([...this.madeOnDemand.values()].map((queue) => queue.close()));
  }

  /**
   * Queues the next attempt of each action due within the horizon; later ones wait in Postgres
   * for the promoter, and one held by a pause for its resume (its job would only be dropped).
   * Postgres is the source of truth: a Redis failure here is logged, not thrown, because the
   * stored action is queued again by the promoter's overdue sweep.
   */
  async enqueue(actions: readonly QueueableAction[]): Promise<void> {
    const horizon = this.clock.now().getTime() + this.config.scheduling.horizonMs + HORIZON_MARGIN_MS;
    const soon = actions.filter((a) => a.nextAttemptAt.getTime() <= horizon && !heldByPause(a));
    try {
      if (soon.length > 0) await this.grouped.submit(soon);
    } catch (error) {
      this.logger.warn(`Could not queue ${soon.length} job(s), the promoter will: ${(error as Error).message}`);
    }
  }

  /** Adds one delayed job per action, grouped by type, each with its fair share's priority and release time (fair-share.ts). Throws when Redis refuses. */
  async add(actions: readonly QueueableAction[]): Promise<void> {
    const now = this.clock.now().getTime();
    const byType = new Map<string, QueueableAction[]>();
    for (const action of actions) byType.set(action.action, [...(byType.get(action.action) ?? []), action]);
    await Promise.all(
      [...byType].map(async ([type, group]) => {
        const queue = this.queueFor(type);
        const shares = await fairShares(queue, group, now, this.config.scheduling.fairReleasePerSec);
        await queue.addBulk(
          group.map((action, index) => ({
            name: type,
            data: { actionId: action.id, revision: action.revision, tenantId: action.tenantId },
            // BullMQ runs a job at timestamp + delay. Both come from one clock reading, or a large
            // batch would run late by the time it takes to build its jobs.
            opts: {
              jobId: jobIdFor(action),
              timestamp: now,
              delay: Math.max(0, shares[index].releaseAt - now),
              priority: shares[index].priority,
            },
          })),
        );
      }),
    );
  }

  /**
   * Makes sure each action's current job exists and can still run: a job that ended without
   * moving the action on (it failed on an infrastructure error, or found nothing to claim while
   * another attempt held the action) is replaced. The state reads of a type go out together,
   * pipelined on one connection, not one round trip per action. Returns how many jobs were added.
   */
  async ensureQueued(actions: readonly QueueableAction[]): Promise<number> {
    const missing: QueueableAction[] = [];
    await Promise.all(
      actions.map(async (action) => {
        const queue = this.queueFor(action.action);
        const state = await queue.getJobState(jobIdFor(action));
        if (state === 'completed' || state === 'failed') await queue.remove(jobIdFor(action));
        if (state === 'completed' || state === 'failed' || state === 'unknown') missing.push(action);
      }),
    );
    await this.add(missing);
    return missing.length;
  }

  /**
   * Sets each queue's marker key where it is missing, and says whether one was: then the Redis
   * holding that queue (its node, on a cluster) is new or lost its data. Each marker lives in its
   * queue's hash slot, so losing any node's data is seen.
   */
  async markersWereMissing(): Promise<boolean> {
    const set = await Promise.all(
      [...this.queues.values()].map(async (queue) => (await queueClient(queue)).set(queue.toKey('promoter-marker'), String(Date.now()), 'NX')),
    );
    return set.some((reply) => reply === 'OK');
  }

  /** A Redis connection of the queues, for keys of Punctual's own beside them. */
  async redis(): Promise<Redis> {
    const [anyQueue] = this.queues.values();
    if (!anyQueue) throw new Error('No action-type queue is registered');
    return queueClient(anyQueue);
  }

  /** Removes the job of the action's current revision, if still waiting. Stale jobs are ignored by the worker anyway. */
  async remove(action: QueueableAction): Promise<void> {
    try {
      await this.queueFor(action.action).remove(jobIdFor(action));
    } catch (error) {
      this.logger.debug(`Could not remove job ${jobIdFor(action)}: ${(error as Error).message}`);
    }
  }
}
