import { IncomingHttpHeaders, Server, createServer } from 'node:http';
import { AddressInfo } from 'node:net';

export interface ReceivedCall {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  at: number;
}

const PLANNED_FAILURE = JSON.stringify({ error: 'planned failure' });

/**
 * A local HTTP endpoint that HTTP_REQUEST actions call in tests and benchmarks. It records
 * every call and can be told to fail the next N calls.
 */
export class HttpReceiver {
  readonly calls: ReceivedCall[] = [];
  private failuresLeft = 0;
  private failureStatus = 500;
  private failureBody = PLANNED_FAILURE;
  private failureHeaders: Record<string, string> = {};
  /** The path the planned failures are for, or null for any call. */
  private failurePath: string | null = null;
  private holdsLeft = 0;
  private delaysLeft = 0;
  private delayMs = 0;
  private bodiesLeft: string[] = [];
  /** Calls received and not yet answered, and the most there were at once, per path. */
  private readonly inFlight = new Map<string, { now: number; peak: number }>();
  private server?: Server;

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        this.calls.push({
          method: req.method ?? '',
          path: req.url ?? '',
          headers: req.headers,
          body: Buffer.concat(chunks).toString('utf8'),
          at: Date.now(),
        });
        const flight = this.inFlight.get(req.url ?? '') ?? { now: 0, peak: 0 };
        this.inFlight.set(req.url ?? '', flight);
        flight.now += 1;
        flight.peak = Math.max(flight.peak, flight.now);
        res.once('close', () => (flight.now -= 1));
        if (this.holdsLeft > 0) {
          this.holdsLeft -= 1;
          return; // never answered, as by a peer that hangs
        }
        const failing = this.failuresLeft > 0 && (this.failurePath === null || this.failurePath === req.url);
        if (failing) this.failuresLeft -= 1;
        const delay = this.delaysLeft > 0 ? this.delayMs : 0;
        if (delay) this.delaysLeft -= 1;
        setTimeout(() => {
          res.writeHead(failing ? this.failureStatus : 200, { 'content-type': 'application/json', ...(failing && this.failureHeaders) });
          res.end(failing ? this.failureBody : (this.bodiesLeft.shift() ?? JSON.stringify({ ok: true })));
        }, delay);
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    return this;
  }

  url(path = '/hook'): string {
    return `http://127.0.0.1:${(this.server!.address() as AddressInfo).port}${path}`;
  }

  /** The next successful answers carry these bodies, one each, as they are. */
  answerNextWith(...bodies: string[]): void {
    this.bodiesLeft.push(...bodies);
  }

  /** The next `count` calls answer `status`, with `body` and `headers` (`{ 'retry-after': '2' }`). */
  failNext(count: number, status = 500, body = PLANNED_FAILURE, headers: Record<string, string> = {}): void {
    this.failurePath = null;
    this.failuresLeft = count;
    this.failureStatus = status;
    this.failureBody = body;
    this.failureHeaders = headers;
  }

  /** The next `count` calls to `path` answer 500: calls to other paths (a webhook trailing an earlier case) do not use them up. */
  failNextTo(path: string, count: number): void {
    this.failNext(count);
    this.failurePath = path;
  }

  /** The next `count` calls get no answer at all. */
  holdNext(count: number): void {
    this.holdsLeft = count;
  }

  /** The next `count` calls are answered after `ms`. */
  delayNext(count: number, ms: number): void {
    this.delaysLeft = count;
    this.delayMs = ms;
  }

  /** Calls per `Idempotency-Key` header value. */
  callsByIdempotencyKey(): Map<string, number> {
    const counts = new Map<string, number>();
    for (const call of this.calls) {
      const key = String(call.headers['idempotency-key']);
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
    return counts;
  }

  /** The most calls to `path` that were received and not yet answered at one time. */
  peakInFlight(path: string): number {
    return this.inFlight.get(path)?.peak ?? 0;
  }

  callsTo(path: string): ReceivedCall[] {
    return this.calls.filter((c) => c.path === path);
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}
