import { Registry, collectDefaultMetrics } from 'prom-client';

let registry: Registry | undefined;

/**
 * The standard process and Node.js metrics (CPU, memory, event-loop lag, GC…), collected once
 * per process: their collectors hold observers that must not be started again for every app
 * booted in the same process.
 */
export function processMetricsRegistry(): Registry {
  if (!registry) {
    registry = new Registry();
    collectDefaultMetrics({ register: registry });
  }
  return registry;
}
