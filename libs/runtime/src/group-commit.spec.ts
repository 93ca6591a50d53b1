import { GroupCommit } from './group-commit';

/** A writer that records each batch and holds it until released, like a slow database round. */
function heldWriter(fail: (item: number) => boolean = () => false) {
  const batches: number[][] = [];
  const releases: (() => void)[] = [];
  const write = async (items: number[]): Promise<string[]> => {
    batches.push(items);
    await new Promise<void>((resolve) => releases.push(resolve));
    if (items.some(fail)) throw new Error(`bad item among ${items.join(',')}`);
    return items.map((i) => `done ${i}`);
  };
  const releaseAll = async () => {
    while (releases.length > 0) {
      releases.shift()!();
      await new Promise((resolve) => setImmediate(resolve));
    }
  };
  return { batches, write, releaseAll };
}

describe('GroupCommit', () => {
  it('writes a lone request at once, and requests arriving meanwhile together in the next batch', async () => {
    const writer = heldWriter();
    const group = new GroupCommit(writer.write);
    const results = [1, 2, 3, 4].map((i) => group.submit(i));
    expect(writer.batches).toEqual([[1]]);
    await writer.releaseAll();
    await expect(Promise.all(results)).resolves.toEqual(['done 1', 'done 2', 'done 3', 'done 4']);
    expect(writer.batches).toEqual([[1], [2, 3, 4]]);
  });

  it('caps a batch at its maximum size', async () => {
    const writer = heldWriter();
    const group = new GroupCommit(writer.write, 2);
    const results = [1, 2, 3, 4, 5].map((i) => group.submit(i));
    await writer.releaseAll();
    await Promise.all(results);
    expect(writer.batches).toEqual([[1], [2, 3], [4, 5]]);
  });

  it('retries a failed batch item by item, so only the bad item fails', async () => {
    const writer = heldWriter((i) => i === 3);
    const group = new GroupCommit(writer.write);
    const results = [1, 2, 3, 4].map((i) => group.submit(i).catch((e: Error) => e.message));
    await writer.releaseAll();
    await expect(Promise.all(results)).resolves.toEqual(['done 1', 'done 2', 'bad item among 3', 'done 4']);
    expect(writer.batches).toEqual([[1], [2, 3, 4], [2], [3], [4]]);
  });

  it("fails the whole batch at once when told that no failure is an item's own", async () => {
    const writer = heldWriter((i) => i === 3);
    const group = new GroupCommit(writer.write, 500, () => false);
    const results = [1, 2, 3, 4].map((i) => group.submit(i).catch((e: Error) => e.message));
    await writer.releaseAll();
    await expect(Promise.all(results)).resolves.toEqual(['done 1', ...Array(3).fill('bad item among 2,3,4')]);
    expect(writer.batches).toEqual([[1], [2, 3, 4]]);
  });
});
