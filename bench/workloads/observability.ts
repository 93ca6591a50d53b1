import { Stores, startApi } from '../harness';
import { percentile } from '../percentile';
import { processCpuMs } from '../proc-cpu';
import { singleCreates } from './ingest';
import { throughput } from './scheduling';
import { punctual } from './systems';

/** The settings each side runs with: everything on as in production, or everything off. */
export const OBSERVABILITY_MODES = {
  // Access lines included (LOG_LEVEL=log), and the API's /metrics scraped every second.
  on: { METRICS_ENABLED: 'true', LOG_FORMAT: 'json', LOG_LEVEL: 'log' },
  off: { METRICS_ENABLED: 'false', LOG_FORMAT: 'text', LOG_LEVEL: 'warn' },
} as const;
export type ObservabilityMode = keyof typeof OBSERVABILITY_MODES;

export interface ObservabilityFigures {
  mode: ObservabilityMode;
  round: number;
  singleActionsPerSec: number;
  singleP99Ms: number;
  /** CPU time of the API process per single create: steadier than rates on a machine other work shares. */
  apiCpuMsPerCreate: number;
  jobsPerSec: number;
  workerCpuMsPerJob: number;
}

/** Scrapes a `/metrics` endpoint every second, as a busy Prometheus would, until stopped. */
function scrapeEverySecond(url: string): () => void {
  const timer = setInterval(
    () =>
      void fetch(url).then(
        (response) => response.text(),
        () => undefined,
      ),
    1000,
  );
  return () => clearInterval(timer);
}

/**
 * Single-create rate and fulfilled throughput (1 worker) with metrics and JSON logs on, then off,
 * `rounds` times in turn so that drift on the machine hits both sides alike. Each side gets an API
 * and workers of its own, started with its settings.
 */
export async function observabilityCost(
  stores: Stores,
  port: number,
  sizes: { singles: number; burst: number; rounds: number },
): Promise<ObservabilityFigures[]> {
  const figures: ObservabilityFigures[] = [];
  for (let round = 1; round <= sizes.rounds; round += 1) {
    for (const mode of ['on', 'off'] as const) {
      const env = OBSERVABILITY_MODES[mode];
      await stores.reset();
      const { api, client } = await startApi(port, env);
      const stopScraping = mode === 'on' ? scrapeEverySecond(`http://127.0.0.1:${port}/metrics`) : () => undefined;
      try {
        const apiCpuBefore = processCpuMs([api.pid]);
        const single = await singleCreates(client, sizes.singles);
        const apiCpuMs = processCpuMs([api.pid]) - apiCpuBefore;
        const { jobsPerSec, cpuMsPerJob } = await throughput(punctual(client, stores, { env }), 1, sizes.burst);
        figures.push({
          mode,
          round,
          singleActionsPerSec: Math.round(sizes.singles / single.seconds),
          singleP99Ms: Math.round(percentile(single.latencies, 99)),
          // The warm-up's 500 creates are counted too: they ran between the two readings.
          apiCpuMsPerCreate: Math.round((100 * apiCpuMs) / (sizes.singles + 500)) / 100,
          jobsPerSec,
          workerCpuMsPerJob: Math.round(100 * cpuMsPerJob.workers!) / 100,
        });
      } finally {
        stopScraping();
        client.close();
        await api.stop();
      }
    }
  }
  return figures;
}
