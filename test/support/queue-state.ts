import { INestApplication } from '@nestjs/common';
import { getQueueToken } from '@nestjs/bullmq';
import { Queue } from 'bullmq';
import { ActionTypeRegistry } from '@app/action-types';
import { WEBHOOK_QUEUE } from '@app/webhooks';
import { ActionQueues } from '@app/scheduling';
import { DataSource } from 'typeorm';

/** Jobs waiting or delayed across every action-type queue. */
export async function queuedJobs(app: INestApplication): Promise<number> {
  const queues = app.get(ActionQueues);
  let total = 0;
  for (const type of app.get(ActionTypeRegistry).types()) {
    const counts = await queues.queueFor(type).getJobCounts('waiting', 'delayed', 'prioritized');
    total += counts.waiting + counts.delayed + counts.prioritized;
  }
  return total;
}

/** Empties every action-type queue and the webhook queue so a spec starts from nothing. */
export async function emptyQueues(app: INestApplication): Promise<void> {
  const queues = app.get(ActionQueues);
  for (const type of app.get(ActionTypeRegistry).types()) await queues.queueFor(type).obliterate({ force: true });
  await app.get<Queue>(getQueueToken(WEBHOOK_QUEUE)).obliterate({ force: true });
}

/** Queues a job by hand for one revision of an action, as a duplicate or left-over delivery would be. */
export async function addJob(app: INestApplication, type: string, actionId: string, revision: number, jobId: string): Promise<void> {
  await app.get(ActionQueues).queueFor(type).add(type, { actionId, revision }, { jobId });
}

/** Queues a job by hand for the action's current revision, under an extra id. */
export async function addJobByHand(app: INestApplication, action: { id: string; action: string }, jobId: string): Promise<void> {
  const [row] = await app.get(DataSource).query('SELECT revision FROM actions WHERE id = $1', [action.id]);
  await addJob(app, action.action, action.id, row.revision, jobId);
}

export async function jobState(app: INestApplication, type: string, jobId: string): Promise<string> {
  return app.get(ActionQueues).queueFor(type).getJobState(jobId);
}
