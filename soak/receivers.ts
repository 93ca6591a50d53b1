import { Server, createServer } from 'node:http';
import { AddressInfo } from 'node:net';

/** How a receiver answers an action's calls, chosen by the path the action calls. */
export type Behaviour = 'ok' | 'slow' | 'fail-once';
export const SLOW_ANSWER_MS = 1500;

/** One call as a receiver saw it. */
export interface Arrival {
  /** The `Idempotency-Key`: `<action id>:<occurrence>`. */
  key: string;
  at: number;
  status: number;
  /** The whole answer was handed to the connection (false while pending, or when the caller hung up first). */
  answered: boolean;
  /** Another call of the same key was still unanswered when this one arrived. */
  overlapped: boolean;
}

/**
 * A local HTTP endpoint for the soak's actions that logs every call, lean enough for hundreds of
 * thousands: `/ok` answers 200 at once, `/slow` after SLOW_ANSWER_MS (so chaos catches calls in
 * flight), `/fail-once` 500 to an occurrence's first call and 200 after (so retries happen).
 */
export class SoakReceiver {
  readonly arrivals: Arrival[] = [];
  private readonly failed = new Set<string>();
  private readonly open = new Map<string, number>();
  private readonly server: Server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const key = String(req.headers['idempotency-key']);
      const openNow = this.open.get(key) ?? 0;
      this.open.set(key, openNow + 1);
      const behaviour = req.url?.slice(1) as Behaviour;
      const failing = behaviour === 'fail-once' && !this.failed.has(key);
      if (failing) this.failed.add(key);
      const arrival: Arrival = { key, at: Date.now(), status: failing ? 500 : 200, answered: false, overlapped: openNow > 0 };
      this.arrivals.push(arrival);
      res.once('finish', () => (arrival.answered = true));
      res.once('close', () => (this.open.get(key) === 1 ? this.open.delete(key) : this.open.set(key, this.open.get(key)! - 1)));
      setTimeout(() => res.writeHead(arrival.status).end(), behaviour === 'slow' ? SLOW_ANSWER_MS : 0);
    });
  });

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return this;
  }

  url(behaviour: Behaviour): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/${behaviour}`;
  }

  /** Calls still waiting for their answer. */
  get unanswered(): number {
    return this.open.size;
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }
}
