import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..', '..');
const PACKAGES = ['libs/contract', 'libs/client', 'libs/sdk', 'apps/server'];

function manifest(dir: string): Record<string, Record<string, string> | undefined> & { name?: string; version?: string } {
  return JSON.parse(readFileSync(join(ROOT, dir, 'package.json'), 'utf8')) as ReturnType<typeof manifest>;
}

describe('The packages’ manifests', () => {
  const root = manifest('.');
  const ours = new Map(PACKAGES.map((dir) => [manifest(dir).name!, manifest(dir).version!]));

  it.each(PACKAGES)('%s names the versions this repository is built and tested with', (dir) => {
    const { dependencies = {}, peerDependencies = {} } = manifest(dir);
    for (const [name, version] of Object.entries({ ...dependencies, ...peerDependencies })) {
      expect([name, version]).toEqual([name, ours.get(name) ?? root.dependencies![name]]);
    }
  });

  it('the server depends on everything the API and the worker need at run time', () => {
    expect(Object.keys(manifest('apps/server').dependencies!)).toEqual(expect.arrayContaining(Object.keys(root.dependencies!)));
  });
});
