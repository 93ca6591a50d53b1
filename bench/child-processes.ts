import { ChildProcess } from 'node:child_process';

/** Every process the benchmark started: none may outlive it, even when it fails. */
const started = new Set<ChildProcess>();
process.on('exit', () => started.forEach((child) => child.kill('SIGKILL')));

export function track(child: ChildProcess): ChildProcess {
  started.add(child);
  child.once('exit', () => started.delete(child));
  return child;
}
