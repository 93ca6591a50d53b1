import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import Redis from 'ioredis';
import { waitUntil } from './wait-until';

const SCRIPT = join(__dirname, '..', '..', '..', 'scripts', 'redis-cluster.sh');
const run = promisify(execFile);

/** A node of the cluster as `CLUSTER NODES` reports it. */
export interface ClusterNode {
  readonly port: number;
  readonly role: 'master' | 'replica';
  /** The master's port, for a replica. */
  readonly masterPort: number | null;
}

/**
 * A six-node Redis Cluster (three masters, three replicas) of a test's or the soak's own, on ports
 * `firstPort`..`firstPort + 5`, started by scripts/redis-cluster.sh: its nodes can be killed and
 * restarted for real, to fail a master over or bring a replica back empty.
 */
export class LocalRedisCluster {
  constructor(
    readonly firstPort: number,
    private readonly dir: string,
  ) {}

  /** The nodes' `host:port` list, for REDIS_CLUSTER_NODES. */
  get nodes(): string {
    return this.ports.map((port) => `127.0.0.1:${port}`).join(',');
  }

  private get ports(): number[] {
    return Array.from({ length: 6 }, (_, i) => this.firstPort + i);
  }

  /** Starts the cluster in its directory; nodes a killed earlier run left on its ports are shut down first. */
  async start(): Promise<void> {
    await run('bash', [SCRIPT, 'own', String(this.firstPort), this.dir]);
  }

  async stop(): Promise<void> {
    await run('bash', [SCRIPT, 'stop', String(this.firstPort), this.dir]);
  }

  /**
   * SIGKILLs a node: no goodbye to the cluster, as a crashed machine. The node names its own pid,
   * so this holds for a node left running by an earlier run, whose pid file is in another directory.
   */
  async kill(port: number): Promise<void> {
    const pid = /^process_id:(\d+)/m.exec((await ask(port, 'INFO', 'server')) ?? '')?.[1];
    if (!pid) throw new Error(`Redis node ${port} does not answer: nothing to kill`);
    process.kill(Number(pid), 'SIGKILL');
  }

  /** Starts a killed node again, empty (nodes keep nothing on disk): it rejoins and resyncs from its master. */
  private async restart(port: number): Promise<void> {
    await run('bash', [SCRIPT, 'node', String(this.firstPort), this.dir, String(port)]);
  }

  /**
   * Kills a master once its replicas hold its data, and waits for one of them to take its slots;
   * returns that replica's port. The killed node stays down until `restartAsReplica`.
   */
  async failOver(masterPort: number, timeoutMs = 60_000): Promise<number> {
    const replicas = (await this.topology()).filter((node) => node.masterPort === masterPort);
    await Promise.all(replicas.map((replica) => this.replicating(replica.port, timeoutMs)));
    await this.kill(masterPort);
    const successor = await waitUntil(
      `a replica of ${masterPort} to take over`,
      async () => (await this.topology()).find((node) => node.role === 'master' && replicas.some((replica) => replica.port === node.port)),
      timeoutMs,
      200,
    );
    return successor.port;
  }

  /** Restarts a killed node and waits until it replicates its new master. */
  async restartAsReplica(port: number, timeoutMs = 60_000): Promise<void> {
    await this.restart(port);
    await this.replicating(port, timeoutMs);
  }

  /** Waits until the node on `port` is a replica in sync with its master. */
  private async replicating(port: number, timeoutMs: number): Promise<void> {
    await waitUntil(
      `node ${port} to replicate its master`,
      async () => /master_link_status:up/.test((await ask(port, 'INFO', 'replication')) ?? ''),
      timeoutMs,
      200,
    );
  }

  /** The nodes as a live node sees them (failed ones left out). */
  async topology(): Promise<ClusterNode[]> {
    for (const port of this.ports) {
      const nodes = await ask(port, 'CLUSTER', 'NODES');
      if (nodes !== null) return parseClusterNodes(nodes);
    }
    throw new Error(`No node of the Redis Cluster on ${this.firstPort}-${this.firstPort + 5} answers`);
  }

  /** The port of the master serving `hashTag`'s slot. */
  async masterOf(hashTag: string): Promise<number> {
    const redis = new Redis({ port: this.firstPort, host: '127.0.0.1' });
    try {
      const slot = (await redis.call('CLUSTER', 'KEYSLOT', hashTag)) as number;
      const shards = (await redis.call('CLUSTER', 'SLOTS')) as [number, number, [string, number]][];
      const shard = shards.find(([from, to]) => slot >= from && slot <= to);
      if (!shard) throw new Error(`No master serves slot ${slot}`);
      return shard[2][1];
    } finally {
      redis.disconnect();
    }
  }

  /** Waits until every slot is served again and every node agrees the cluster is healthy. */
  async healthy(timeoutMs = 30_000): Promise<void> {
    await waitUntil(
      'the Redis Cluster to be healthy',
      async () => {
        const nodes = await this.topology();
        if (nodes.filter((node) => node.role === 'master').length !== 3) return false;
        const states = await Promise.all(nodes.map((node) => ask(node.port, 'CLUSTER', 'INFO')));
        return states.every((state) => state?.includes('cluster_state:ok'));
      },
      timeoutMs,
      200,
    );
  }
}

function parseClusterNodes(text: string): ClusterNode[] {
  const lines = text.trim().split('\n');
  const portOf = new Map(lines.map((line) => [line.split(' ')[0], Number(/:(\d+)@/.exec(line.split(' ')[1])![1])]));
  return lines
    .map((line) => line.split(' '))
    .filter(([, , flags]) => !flags.includes('fail') && !flags.includes('noaddr'))
    .map(([, address, flags, masterId]) => ({
      port: Number(/:(\d+)@/.exec(address)![1]),
      role: flags.includes('master') ? ('master' as const) : ('replica' as const),
      masterPort: masterId === '-' ? null : (portOf.get(masterId) ?? null),
    }));
}

/** One node's answer to one command, or null when it does not answer: a dead node is a normal state here. */
async function ask(port: number, ...command: string[]): Promise<string | null> {
  const redis = new Redis({ port, host: '127.0.0.1', lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  redis.on('error', () => undefined); // the refused connect rejects below too
  try {
    await redis.connect();
    return (await redis.call(command[0], ...command.slice(1))) as string;
  } catch {
    return null;
  } finally {
    redis.disconnect();
  }
}
