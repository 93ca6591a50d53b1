/**
 * CPU time as Linux counts it in /proc: of single processes (every thread of each) and of the
 * whole machine. Counted in clock ticks of 10 ms (CLK_TCK 100).
 */
import { readFileSync } from 'node:fs';

const MS_PER_TICK = 10;

/** A process's /proc/<pid>/stat fields from its state on; undefined once it has ended. */
function statFields(pid: number): string[] | undefined {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  // The command name before the state is in parentheses and may hold spaces and parentheses.
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
}

/** User + system CPU time of a live process so far, in ms. */
function cpuMsOf(pid: number): number | undefined {
  const fields = statFields(pid);
  return fields && (Number(fields[11]) + Number(fields[12])) * MS_PER_TICK;
}

/** CPU time (user + system) the processes have used so far, in ms; one that has ended counts nothing. */
export function processCpuMs(pids: readonly number[]): number {
  return pids.reduce((total, pid) => total + (cpuMsOf(pid) ?? 0), 0);
}

export function parentPid(pid: number): number | undefined {
  const fields = statFields(pid);
  return fields && Number(fields[1]);
}

/** The process's command name (`comm`), or undefined when this machine shows no such process. */
export function processName(pid: number): string | undefined {
  try {
    return readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
  } catch {
    return undefined;
  }
}

/** Groups of processes by role; null for a group this machine cannot see (a server in a container). */
export type ProcessGroups<G extends string> = Record<G, readonly number[] | null>;

/**
 * Runs `work` and returns the CPU time each group of processes spent meanwhile, in ms. The groups
 * are listed before and after: a process listed only after started meanwhile and counts from zero;
 * one that ended meanwhile counts nothing, so what it spent in between is lost.
 */
export async function cpuDuring<G extends string, T>(
  list: () => Promise<ProcessGroups<G>>,
  work: () => Promise<T>,
): Promise<{ result: T; cpuMs: Record<G, number | null> }> {
  const before = await list();
  const startMs = new Map<number, number>();
  for (const pids of Object.values<readonly number[] | null>(before)) for (const pid of pids ?? []) startMs.set(pid, cpuMsOf(pid) ?? 0);
  const result = await work();
  const after = await list();
  const cpuMs = {} as Record<G, number | null>;
  for (const group of Object.keys(after) as G[]) {
    const [then, now] = [before[group], after[group]];
    cpuMs[group] =
      then === null || now === null
        ? null
        : [...new Set([...then, ...now])].reduce((total, pid) => {
            const end = cpuMsOf(pid);
            return end === undefined ? total : total + end - (startMs.get(pid) ?? 0);
          }, 0);
  }
  return { result, cpuMs };
}

/** CPU time per action, in ms: each group's, and their total; null where a group was not seen (a total with it too). */
export type CpuPerAction<G extends string> = Record<G | 'total', number | null>;

export function cpuPerAction<G extends string>(cpuMs: Record<G, number | null>, actions: number): CpuPerAction<G> {
  const perAction = (ms: number | null) => (ms === null ? null : Math.round((1000 * ms) / actions) / 1000);
  const shares = Object.values<number | null>(cpuMs);
  const total = shares.includes(null) ? null : (shares as number[]).reduce((a, b) => a + b, 0);
  const groups = Object.fromEntries(Object.entries<number | null>(cpuMs).map(([group, ms]) => [group, perAction(ms)])) as Record<G, number | null>;
  return { ...groups, total: perAction(total) };
}

/** Busy and total CPU ticks of the whole machine, from /proc/stat. */
function machineTicks(): { busy: number; total: number } {
  const [, ...fields] = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/);
  const ticks = fields.map(Number);
  const idle = ticks[3] + ticks[4];
  const total = ticks.reduce((a, b) => a + b, 0);
  return { busy: total - idle, total };
}

/** Runs `work` and reports the machine's CPU use meanwhile (all cores, all processes: Postgres and Redis too). */
export async function withMachineCpu<T>(work: () => Promise<T>): Promise<{ result: T; machineCpuPercent: number }> {
  const before = machineTicks();
  const result = await work();
  const after = machineTicks();
  return { result, machineCpuPercent: Math.round((100 * (after.busy - before.busy)) / (after.total - before.total)) };
}
