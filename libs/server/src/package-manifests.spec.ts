import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..', '..');
const PACKAGES = ['libs/contract', 'libs/client', 'libs/sdk', 'libs/server'];

function manifest(dir: string): Record<string, Record<string, string> | undefined> & { name?: string; version?: string } {
  return JSON.parse(readFileSync(join(ROOT, dir, 'package.json'), 'utf8')) as ReturnType<typeof manifest>;
}

describe('The packages’ manifests', () => {
  const root = manifest('.');
  const ours = new Map(PACKAGES.map((dir) => [manifest(dir).name!, manifest(dir).version!]));

  // ioredis: the packages also take 5, TypeORM's optional peer, so that npm installs one ioredis beside the server (README, Packages).
  const named = (name: string) => ours.get(name) ?? (name === 'ioredis' ? `^5.0.4 || ${root.dependencies!.ioredis}` : root.dependencies![name]);

  it.each(PACKAGES)('%s names the versions this repository is built and tested with', (dir) => {
    const { dependencies = {}, peerDependencies = {} } = manifest(dir);
    for (const [name, version] of Object.entries({ ...dependencies, ...peerDependencies })) {
      expect([name, version]).toEqual([name, named(name)]);
    }
  });

  it('the server depends on everything the API and the worker need at run time', () => {
    expect(Object.keys(manifest('libs/server').dependencies!)).toEqual(expect.arrayContaining(Object.keys(root.dependencies!)));
  });

  // CI runs the packages again on the Node 22 build that scripts/node-runtime.sh pins: each package's floor must be on that line and not above it.
  it.each(PACKAGES)('%s states a Node floor that the Node 22 CI runs it on meets', (dir) => {
    const pinned = /^PUNCTUAL_NODE_22=(\d+)\.(\d+)\.\d+$/m.exec(readFileSync(join(ROOT, 'scripts', 'node-runtime.sh'), 'utf8'))!;
    const floor = /^>=(\d+)(?:\.(\d+))?$/.exec(manifest(dir).engines!.node)!;
    expect(floor).not.toBeNull();
    expect(Number(floor[1])).toBe(22);
    expect(Number(floor[2] ?? 0)).toBeLessThanOrEqual(Number(pinned[2]));
  });
});
