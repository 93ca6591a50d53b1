import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** This tree: the repository the benchmark runs from. */
export const THIS_ROOT = join(__dirname, '..', '..');

export function git(args: string[]): string {
  return execFileSync('git', args, { cwd: THIS_ROOT, encoding: 'utf8', maxBuffer: 64 * 2 ** 20 }).trim();
}

/** Runs a build or install step in `cwd`, its output on stderr so that stdout keeps the figures. */
function step(command: string, args: string[], cwd: string): void {
  process.stderr.write(`[${cwd}] ${command} ${args.join(' ')}\n`);
  execFileSync(command, args, { cwd, stdio: ['ignore', 2, 2] });
}

/**
 * A commit checked out in a temporary git worktree with its own node_modules and its own built
 * apps (`nest build api && nest build bench` into its own dist/). The worktree is removed when this
 * process exits, also after a failure.
 */
export function temporaryWorktree(ref: string): { sha: string; root: string } {
  const sha = git(['rev-parse', '--verify', `${ref}^{commit}`]);
  const dir = mkdtempSync(join(tmpdir(), 'punctual-bench-'));
  const root = join(dir, 'tree');
  git(['worktree', 'add', '--detach', root, sha]);
  process.once('exit', () => {
    git(['worktree', 'remove', '--force', root]);
    rmSync(dir, { recursive: true, force: true });
  });
  // The same lockfile installs the same packages: this tree's node_modules serves both.
  if (git(['show', `${sha}:package-lock.json`]) === readFileSync(join(THIS_ROOT, 'package-lock.json'), 'utf8').trim()) {
    symlinkSync(join(THIS_ROOT, 'node_modules'), join(root, 'node_modules'), 'dir');
  } else {
    step('npm', ['ci', '--no-audit', '--no-fund'], root);
  }
  const nest = join(root, 'node_modules', '.bin', 'nest');
  step(nest, ['build', 'api'], root);
  step(nest, ['build', 'bench'], root);
  return { sha, root };
}
