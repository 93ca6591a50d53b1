import { randomUUID } from 'node:crypto';
import { PunctualConfig, loadConfig } from '@app/config';
import { ActionEntity, NewAction } from '@app/database';
import { ActionState, DEFAULT_TENANT, MisfirePolicy, newActionState } from '@app/domain';
import { InMemoryActionQueues } from './in-memory-action-queues';
import { InMemoryConsumedQueues } from './in-memory-consumed-queues';
import { InMemoryLifecycleStore } from './in-memory-lifecycle-store';
import { InMemorySchedule } from './in-memory-schedule';
import { InMemorySlotStore } from './in-memory-slot-store';
import { ManualClock } from './manual-clock';

/** The moment orchestration specs start at. */
export const SPEC_NOW = new Date('2026-01-05T12:00:00.000Z');

/** A configuration as the apps load it, from the least a deployment must set and `env`. */
export function specConfig(env: Record<string, string> = {}): PunctualConfig {
  return loadConfig({ API_KEYS: 'k1:secret-one-0123456789', ADMIN_PASSWORD: 'long-enough', METRICS_ENABLED: 'false', ...env });
}

/** The ports of the orchestration classes in memory, on one manual clock: no Postgres, Redis or network. */
export class InMemoryPorts {
  readonly clock = new ManualClock(SPEC_NOW);
  readonly store = new InMemoryLifecycleStore(this.clock);
  readonly queues = new InMemoryActionQueues();
  readonly schedule = new InMemorySchedule(this.store, this.clock);
  readonly slots = new InMemorySlotStore(this.clock);
  readonly consumedQueues = new InMemoryConsumedQueues();

  /** Stores a one-off action of `type`, PENDING and due now unless `overrides` say otherwise. */
  async stored(type: string, overrides: Partial<ActionState> = {}): Promise<ActionEntity> {
    return this.store.create(this.newAction(type, overrides));
  }

  /** Stores one such action for each of `overrides`, at once. */
  storedMany(type: string, overrides: Partial<ActionState>[]): Promise<ActionEntity[]> {
    return this.store.createMany(overrides.map((each) => this.newAction(type, each)));
  }

  private newAction(type: string, overrides: Partial<ActionState>): NewAction {
    const now = this.clock.now();
    const { state: created } = newActionState(
      {
        executionTime: now,
        data: { message: 'hello' },
        metadata: {},
        repeat: false,
        frequency: null,
        cron: null,
        timezone: null,
        executionRemainder: null,
        endAt: null,
        misfirePolicy: MisfirePolicy.RunOnce,
        retryPolicy: null,
        callbackUrl: null,
        jitterMs: null,
        dstPolicy: null,
        calendar: null,
      },
      'k1',
      now,
      0,
    );
    const state: ActionState = { ...created, ...overrides };
    const history = { from: null, to: state.status, occurrence: state.occurrence, attempt: 0, note: null };
    return { id: randomUUID(), action: type, tenantId: DEFAULT_TENANT, apiKeyId: 'k1', state, history };
  }
}
