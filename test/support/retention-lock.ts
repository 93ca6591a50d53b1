import { RetentionRepository } from '@app/database';
import { ApiTestApp } from './api-test-app';

/**
 * Takes the retention leader's lock in the API process, so that the workers' own runs never purge
 * and only a spec's calls do, at the moment it makes them. Returns what gives the lock back.
 */
export async function holdRetentionLock(api: ApiTestApp): Promise<() => Promise<void>> {
  const { lock } = api.app.get(RetentionRepository);
  if ((await lock.whileHeld(async () => true)) === null) throw new Error('Another process holds the retention lock');
  return () => lock.release();
}
