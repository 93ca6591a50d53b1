// The e2e-cluster tier: the core execution and recovery specs again, with every app (in this
// process or started by a spec) on a Redis Cluster rather than one server. scripts/services.sh
// starts a local one on ports 7000–7005 for `npm test`; TEST_REDIS_CLUSTER_NODES points elsewhere.
process.env.REDIS_CLUSTER_NODES = process.env.TEST_REDIS_CLUSTER_NODES ?? Array.from({ length: 6 }, (_, i) => `127.0.0.1:${7000 + i}`).join(',');
process.env.QUEUE_PREFIX = 'punctual-test-cluster';
