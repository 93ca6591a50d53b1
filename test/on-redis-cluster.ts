// A setup file of the e2e-cluster tier, after test-env.ts: see redis-cluster-tier.ts.
import { clusterTierEnv } from './redis-cluster-tier';

Object.assign(process.env, clusterTierEnv(process.env));
