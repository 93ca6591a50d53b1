/**
 * The settings of the e2e-cluster tier: the core execution and recovery specs again, with every app
 * (in a spec's process or started by it) on a Redis Cluster rather than one server, and on a
 * database of its own, since a promoter's watermark in Postgres belongs to the Redis it filled.
 * scripts/services.sh starts a local cluster on ports 7000–7005 for `npm test`;
 * TEST_REDIS_CLUSTER_NODES points elsewhere.
 */
export function clusterTierEnv(env: NodeJS.ProcessEnv): Record<string, string> {
  const database = new URL(env.DATABASE_URL!);
  database.pathname = `${database.pathname}_cluster`;
  return {
    REDIS_CLUSTER_NODES: env.TEST_REDIS_CLUSTER_NODES ?? Array.from({ length: 6 }, (_, i) => `127.0.0.1:${7000 + i}`).join(','),
    QUEUE_PREFIX: 'punctual-test-cluster',
    DATABASE_URL: database.toString(),
  };
}
