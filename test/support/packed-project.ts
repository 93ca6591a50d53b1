import { execFile } from 'node:child_process';
import { cp, mkdir, readFile, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const ROOT = join(__dirname, '..', '..');

/** What a command printed (`stdout` alone, and `output` with stderr), and its exit code (0 when it succeeded). */
export interface CommandResult {
  code: number;
  stdout: string;
  output: string;
}

/** Runs a command to its end; a non-zero exit is an answer, not an exception. */
export async function command(file: string, args: readonly string[], cwd: string, timeoutMs = 240_000): Promise<CommandResult> {
  try {
    const { stdout, stderr } = await run(file, args, {
      cwd,
      timeout: timeoutMs,
      maxBuffer: 32 * 1024 * 1024,
      env: { ...process.env, NODE_ENV: 'development' },
    });
    return { code: 0, stdout, output: stdout + stderr };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string; message: string };
    return {
      code: typeof failed.code === 'number' ? failed.code : 1,
      stdout: failed.stdout ?? '',
      output: `${failed.stdout ?? ''}${failed.stderr ?? ''}${failed.message}`,
    };
  }
}

/** Like `command`, but a failure fails the test with the command's output; answers what it printed on stdout. */
export async function mustRun(file: string, args: readonly string[], cwd: string): Promise<string> {
  const result = await command(file, args, cwd);
  if (result.code !== 0) throw new Error(`${file} ${args.join(' ')} failed in ${cwd} (exit ${result.code}):\n${result.output}`);
  return result.stdout;
}

/** Builds and packs every package with `npm run pack:packages`; answers the tarball of each package name. */
export async function packPackages(dir: string): Promise<Record<string, string>> {
  await mustRun('bash', [join(ROOT, 'scripts', 'pack-packages.sh'), dir], ROOT);
  const tarballs: Record<string, string> = {};
  for (const file of await readdir(dir)) {
    const name = /^punctual-([a-z]+)-\d/.exec(file)?.[1];
    if (name) tarballs[`@punctual/${name}`] = join(dir, file);
  }
  return tarballs;
}

/** The version range this repository uses for a package, so a test project installs what the packages were built against. */
export async function rootVersionOf(name: string): Promise<string> {
  const root = JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8')) as Record<string, Record<string, string>>;
  const version = root.dependencies[name] ?? root.devDependencies[name];
  if (!version) throw new Error(`${name} is not a dependency of this repository`);
  return version;
}

/**
 * `npm install` as a test project runs it (from npm's cache where it can), with the `@punctual` scope
 * on a registry where nothing listens: an install that asks a registry for any `@punctual/*` package
 * fails, as one would that could install whatever someone published under that name.
 */
export function npmInstall(dir: string, ...args: string[]): Promise<string> {
  return mustRun(
    'npm',
    ['install', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error', '--@punctual:registry=http://127.0.0.1:9/', ...args],
    dir,
  );
}

/** What `npm ls --all` finds wrong in a project's tree (missing, invalid, extraneous), and its exit code (0 when nothing). */
export async function npmLs(dir: string): Promise<{ code: number; problems: string[] }> {
  const result = await command('npm', ['ls', '--all', '--json'], dir);
  const { problems = [] } = JSON.parse(result.stdout) as { problems?: string[] };
  return { code: result.code, problems };
}

/** The manifest packed in a tarball. */
export async function packedManifest(tarball: string): Promise<Record<string, unknown>> {
  return JSON.parse(await mustRun('tar', ['-xzOf', tarball, 'package/package.json'], ROOT)) as Record<string, unknown>;
}

/** Where a package is installed in a project, from its lockfile: one path per copy (`node_modules/x`, `node_modules/y/node_modules/x`, …) with its version. */
export async function installedCopies(dir: string, name: string): Promise<Record<string, string>> {
  const lock = JSON.parse(await readFile(join(dir, 'package-lock.json'), 'utf8')) as { packages: Record<string, { version?: string }> };
  return Object.fromEntries(
    Object.entries(lock.packages)
      .filter(([path]) => path === `node_modules/${name}` || path.endsWith(`/node_modules/${name}`))
      .map(([path, entry]) => [path, entry.version ?? '']),
  );
}

/**
 * A project outside this repository: `package.json` with `@punctual/*` dependencies pointing at
 * the tarballs, installed with `npmInstall`, and the given source files.
 */
export async function installProject(
  dir: string,
  manifest: { dependencies: Record<string, string>; devDependencies?: Record<string, string> },
  tarballs: Record<string, string>,
): Promise<void> {
  const fromTarballs = (deps: Record<string, string> = {}) =>
    Object.fromEntries(Object.entries(deps).map(([name, version]) => [name, tarballs[name] ? `file:${tarballs[name]}` : version]));
  await mkdir(dir, { recursive: true });
  const packageJson = { ...manifest, dependencies: fromTarballs(manifest.dependencies), devDependencies: fromTarballs(manifest.devDependencies) };
  await writeFile(join(dir, 'package.json'), JSON.stringify(packageJson, null, 2));
  await npmInstall(dir);
}

/** Copies a project of this repository (its manifest, tsconfig and sources) to `dir`, outside the repository. */
export async function copyProject(from: string, dir: string): Promise<Record<string, unknown>> {
  await mkdir(dir, { recursive: true });
  await cp(join(ROOT, from, 'src'), join(dir, 'src'), { recursive: true });
  await cp(join(ROOT, from, 'tsconfig.json'), join(dir, 'tsconfig.json'));
  return JSON.parse(await readFile(join(ROOT, from, 'package.json'), 'utf8')) as Record<string, unknown>;
}
