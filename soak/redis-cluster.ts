import { execFile } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import Redis from 'ioredis';
import { waitUntil } from '@app/testing';
import { pick } from './random';

const SCRIPT = join(__dirname, '..', 'scripts', 'redis-cluster.sh');
/** Nodes fail over after 2 s without their master (the script's cluster-node-timeout); a replica resyncs in seconds. */
const HEAL_TIMEOUT_MS = 60_000;

interface ClusterNode {
  id: string;
  port: number;
  master: boolean;
  /** The id of the master it replicates, for a replica. */
  of: string;
  failing: boolean;
}

/** Asks one node (on `port`) a question and hangs up, whatever the answer. */
async function ask<T>(port: number, question: (node: Redis) => Promise<T>): Promise<T> {
  const node = new Redis({ port, host: '127.0.0.1', lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  try {
    await node.connect();
    return await question(node);
  } finally {
    node.disconnect();
  }
}

/**
 * The soak's own six-node Redis Cluster (scripts/redis-cluster.sh): started empty, and broken on
 * purpose: a master killed and replaced by its replica, a replica killed and restarted empty.
 */
export class SoakRedisCluster {
  private constructor(
    private readonly firstPort: number,
    private readonly dir: string,
  ) {}

  /** A new cluster: whatever an earlier run left in `dir` is stopped and removed first. */
  static async start(firstPort: number, dir: string): Promise<SoakRedisCluster> {
    const cluster = new SoakRedisCluster(firstPort, dir);
    await cluster.script('stop');
    rmSync(dir, { recursive: true, force: true });
    await cluster.script('start');
    return cluster;
  }

  /** The node list the apps get in REDIS_CLUSTER_NODES. */
  get seeds(): string {
    return Array.from({ length: 6 }, (_, i) => `127.0.0.1:${this.firstPort + i}`).join(',');
  }

  /** SIGKILLs a master, waits for one of its replicas to take its slots, then restarts it, to rejoin as a replica. */
  async failOverMaster(random: () => number): Promise<string> {
    const nodes = await this.nodes();
    const victim = pick(
      random,
      nodes.filter((n) => n.master && !n.failing),
    );
    const replicas = nodes.filter((n) => n.of === victim.id);
    // A replica that has not synced its master yet cannot take over: break one thing at a time.
    await Promise.all(replicas.map((replica) => this.linked(replica.port)));
    // Redis 7.0 refused to promote a freshly synced replica here ("disconnected from master for
    // longer than allowed"): the step is about a failover, not about that age limit.
    await Promise.all(replicas.map((replica) => ask(replica.port, (node) => node.config('SET', 'cluster-replica-validity-factor', '0'))));
    this.kill(victim.port);
    const witness = nodes.find((n) => n.port !== victim.port)!.port;
    const successor = await waitUntil(
      `a replica of ${victim.port} to take over`,
      async () => {
        const now = await this.nodes(witness).catch(() => []);
        return now.find((n) => n.master && !n.failing && replicas.some((r) => r.id === n.id)) ?? null;
      },
      HEAL_TIMEOUT_MS,
      200,
    );
    await this.restartAsReplica(victim.port);
    return `master ${victim.port} killed, ${successor.port} took over, ${victim.port} back as its replica`;
  }

  /** SIGKILLs a replica and starts it again with nothing in memory: it resyncs from its master. */
  async flushReplica(random: () => number): Promise<string> {
    const victim = pick(
      random,
      (await this.nodes()).filter((n) => !n.master && !n.failing),
    );
    this.kill(victim.port);
    await this.restartAsReplica(victim.port);
    return `replica ${victim.port} killed and restarted empty, resynced`;
  }

  async stop(): Promise<void> {
    await this.script('stop');
  }

  private async restartAsReplica(port: number): Promise<void> {
    await this.script('node', String(port));
    await this.linked(port);
  }

  /** Waits until the replica on `port` is in sync with its master. */
  private async linked(port: number): Promise<void> {
    await waitUntil(
      `node ${port} to replicate its master`,
      async () => /master_link_status:up/.test(await ask(port, (node) => node.info('replication')).catch(() => '')),
      HEAL_TIMEOUT_MS,
      200,
    );
  }

  private kill(port: number): void {
    process.kill(Number(readFileSync(join(this.dir, String(port), 'redis.pid'), 'utf8')), 'SIGKILL');
  }

  /** The cluster as the node on `port` (else the first that answers) sees it. */
  private async nodes(port?: number): Promise<ClusterNode[]> {
    const ports = port === undefined ? Array.from({ length: 6 }, (_, i) => this.firstPort + i) : [port];
    for (const candidate of ports) {
      const text = await ask(candidate, (node) => node.cluster('NODES') as Promise<string>).catch(() => null);
      if (text === null) continue;
      return text
        .trim()
        .split('\n')
        .map((line) => {
          const [id, address, flags, of] = line.split(' ');
          return { id, port: Number(/:(\d+)@/.exec(address)![1]), master: flags.includes('master'), of, failing: flags.includes('fail') };
        });
    }
    throw new Error('no node of the soak cluster answers');
  }

  private async script(...args: string[]): Promise<void> {
    const [command, ...rest] = args;
    await promisify(execFile)('bash', [SCRIPT, command, String(this.firstPort), this.dir, ...rest]);
  }
}
