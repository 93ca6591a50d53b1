import { rmSync } from 'node:fs';
import { LocalRedisCluster } from '@app/testing';
import { pick } from './random';

/**
 * The soak's own six-node Redis Cluster: started empty, and broken on purpose, one node at a time:
 * a master killed and replaced by its replica, a replica killed and restarted empty.
 */
export class SoakRedisCluster {
  private constructor(private readonly cluster: LocalRedisCluster) {}

  /** A new cluster: whatever an earlier run left in `dir` is stopped and removed first. */
  static async start(firstPort: number, dir: string): Promise<SoakRedisCluster> {
    const cluster = new LocalRedisCluster(firstPort, dir);
    await cluster.stop();
    rmSync(dir, { recursive: true, force: true });
    await cluster.start();
    return new SoakRedisCluster(cluster);
  }

  /** The node list the apps get in REDIS_CLUSTER_NODES. */
  get seeds(): string {
    return this.cluster.nodes;
  }

  /** SIGKILLs a master, waits for one of its replicas to take its slots, then restarts it, to rejoin as a replica. */
  async failOverMaster(random: () => number): Promise<string> {
    const masters = (await this.cluster.topology()).filter((node) => node.role === 'master');
    const victim = pick(random, masters).port;
    const successor = await this.cluster.failOver(victim);
    await this.cluster.restartAsReplica(victim);
    return `master ${victim} killed, ${successor} took over, ${victim} back as its replica`;
  }

  /** SIGKILLs a replica and starts it again with nothing in memory: it resyncs from its master. */
  async flushReplica(random: () => number): Promise<string> {
    const replicas = (await this.cluster.topology()).filter((node) => node.role === 'replica');
    const victim = pick(random, replicas).port;
    await this.cluster.kill(victim);
    await this.cluster.restartAsReplica(victim);
    return `replica ${victim} killed and restarted empty, resynced`;
  }

  stop(): Promise<void> {
    return this.cluster.stop();
  }
}
