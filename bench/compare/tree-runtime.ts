import { readFileSync } from 'node:fs';
import { delimiter, join, sep } from 'node:path';
import { THIS_ROOT } from './worktree';

/**
 * The Node line a tree declares: the floor of its package.json `engines.node` (">=20.19" → 20,
 * ">=26" → 26). Each tree is measured on its own line, so that a comparison across the move to a
 * newer Node measures the move too.
 */
export function declaredNodeLine(root: string): number {
  const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { engines?: { node?: string } };
  const floor = /(\d+)/.exec(manifest.engines?.node ?? '');
  if (!floor) throw new Error(`${root}/package.json declares no engines.node to measure it on`);
  return Number(floor[1]);
}

/**
 * How to run `node …` for a tree: through this tree's scripts/node-runtime.sh with that tree's
 * line, on a PATH without the Nodes it put first, so that the machine's own `node` serves when it
 * is of that line and an official build from the npm registry otherwise.
 */
export function nodeCommandFor(root: string): { command: string; prefix: string[]; env: NodeJS.ProcessEnv } {
  const runtimes = join(THIS_ROOT, '.runtime') + sep;
  const path = (process.env.PATH ?? '')
    .split(delimiter)
    .filter((entry) => !entry.startsWith(runtimes))
    .join(delimiter);
  return {
    command: 'bash',
    prefix: [join(THIS_ROOT, 'scripts', 'node-runtime.sh'), '--line', String(declaredNodeLine(root)), 'node'],
    env: { PATH: path },
  };
}
