// The e2e-cluster tier's global setup: the test database's, on that tier's own database.
import { prepareDatabase } from './global-setup';
import { clusterTierEnv } from './redis-cluster-tier';

export default function globalSetupOfClusterTier(): Promise<void> {
  return prepareDatabase(clusterTierEnv(process.env).DATABASE_URL);
}
