import { Agent, request } from 'node:http';
import { percentile } from '../percentile';
import { processCpuMs } from '../proc-cpu';

export interface UnsignedSizes {
  /** Measured requests of each body, one at a time. */
  requests: number;
  /** Measured `/health/live` probes, alone and under load. */
  probes: number;
}

export interface RefusalFigures {
  p50Ms: number;
  p99Ms: number;
  /** CPU time of the API process per request, user and system. */
  apiCpuMs: number;
  /** The longest the API's event loop was held up meanwhile (its `nodejs_eventloop_lag_max_seconds`). */
  loopLagMaxMs: number;
}

export interface ProbeFigures {
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
}

export interface UnsignedFigures {
  bodyBytes: number;
  /** Unsigned `POST /actions/batch` with `{}`: refused 401. */
  tiny: RefusalFigures;
  /** The same with 1 MB of nested arrays, `[[[…]]]`, the JSON costliest to parse per byte. */
  nested: RefusalFigures;
  liveAlone: ProbeFigures;
  /** `/health/live` while `LOADING_CLIENTS` clients send the nested body in a loop. */
  liveUnderLoad: ProbeFigures & { clients: number };
}

// Bytes, encoded once: the load generator shares the machine with the API.
const NESTED_ARRAYS = Buffer.from('['.repeat(500_000) + ']'.repeat(500_000));
const TINY = Buffer.from('{}');
const LOADING_CLIENTS = 4;
const WARM_UP_REQUESTS = 10;

/** An unsigned request as anyone could send it: the status, and the answer read to its end. */
function send(agent: Agent, port: number, method: string, path: string, body?: Buffer): Promise<number> {
  return new Promise((resolve, reject) => {
    const headers = body === undefined ? {} : { 'content-type': 'application/json', 'content-length': String(body.length) };
    const outgoing = request({ host: '127.0.0.1', port, method, path, agent, headers }, (response) => {
      response.resume();
      response.on('end', () => resolve(response.statusCode ?? 0));
    });
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}

/** Wall times in ms of `count` calls one after another, after a few unmeasured ones. */
async function times(count: number, call: () => Promise<number>, expected: number): Promise<number[]> {
  const measured: number[] = [];
  for (let i = 0; i < WARM_UP_REQUESTS + count; i += 1) {
    const started = performance.now();
    const status = await call();
    if (status !== expected) throw new Error(`expected ${expected}, got ${status}`);
    if (i >= WARM_UP_REQUESTS) measured.push(performance.now() - started);
  }
  return measured.sort((a, b) => a - b);
}

const round = (ms: number) => Math.round(ms * 100) / 100;

/** The API's longest event-loop delay since the previous scrape: each scrape starts a new measurement. */
async function loopLagMaxMs(port: number): Promise<number> {
  const metrics = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
  const seconds = /^nodejs_eventloop_lag_max_seconds (\S+)$/m.exec(metrics);
  if (!seconds) throw new Error('the API exports no nodejs_eventloop_lag_max_seconds');
  return Number(seconds[1]) * 1000;
}

async function refusals(agent: Agent, port: number, apiPid: number, requests: number, body: Buffer): Promise<RefusalFigures> {
  await loopLagMaxMs(port);
  const cpuBefore = processCpuMs([apiPid]);
  const measured = await times(requests, () => send(agent, port, 'POST', '/actions/batch', body), 401);
  const apiCpuMs = (processCpuMs([apiPid]) - cpuBefore) / (WARM_UP_REQUESTS + requests);
  return {
    p50Ms: round(percentile(measured, 50)),
    p99Ms: round(percentile(measured, 99)),
    apiCpuMs: round(apiCpuMs),
    loopLagMaxMs: round(await loopLagMaxMs(port)),
  };
}

async function probes(agent: Agent, port: number, count: number): Promise<ProbeFigures> {
  const measured = await times(count, () => send(agent, port, 'GET', '/health/live'), 200);
  return { p50Ms: round(percentile(measured, 50)), p99Ms: round(percentile(measured, 99)), maxMs: round(measured[measured.length - 1]) };
}

/**
 * What an unauthenticated request costs the API: a tiny body beside 1 MB of nested arrays, both
 * refused 401 (latency and the API's CPU per request), and the latency of `/health/live` alone
 * and while clients send such bodies without pause.
 */
export async function unsignedCost(port: number, apiPid: number, sizes: UnsignedSizes): Promise<UnsignedFigures> {
  const agent = new Agent({ keepAlive: true, maxSockets: LOADING_CLIENTS + 1 });
  try {
    const tiny = await refusals(agent, port, apiPid, sizes.requests, TINY);
    const nested = await refusals(agent, port, apiPid, sizes.requests, NESTED_ARRAYS);
    const liveAlone = await probes(agent, port, sizes.probes);
    let loading = true;
    const clients = Array.from({ length: LOADING_CLIENTS }, async () => {
      while (loading) await send(agent, port, 'POST', '/actions/batch', NESTED_ARRAYS);
    });
    try {
      const liveUnderLoad = await probes(agent, port, sizes.probes);
      return { bodyBytes: NESTED_ARRAYS.length, tiny, nested, liveAlone, liveUnderLoad: { clients: LOADING_CLIENTS, ...liveUnderLoad } };
    } finally {
      loading = false;
      await Promise.all(clients);
    }
  } finally {
    agent.destroy();
  }
}
