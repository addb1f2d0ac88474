import { describe, expect, it } from 'vitest';
import { createGroupCommit } from './group-commit';

type Item = { key: string; n: number };

/** A group commit whose batches are recorded and finish when the test says so. */
function recorder(options: { lanes: number; maxBatch?: number; failWhen?: (items: Item[]) => boolean }) {
  const batches: number[][] = [];
  const open: (() => void)[] = [];
  const push = createGroupCommit<Item, string>({
    keyOf: (i) => i.key,
    maxBatch: options.maxBatch ?? 100,
    lanes: options.lanes,
    apply: async (items) => {
      batches.push(items.map((i) => i.n));
      await new Promise<void>((resolve) => open.push(resolve));
      if (options.failWhen?.(items)) {
        throw new Error(`batch ${items.map((i) => i.n).join(',')} failed`);
      }
      return items.map((i) => `done ${i.n}`);
    },
  });
  /** lets every batch started so far finish, and waits for the ones they start */
  const settle = async () => {
    for (let round = 0; round < 20 && open.length > 0; round++) {
      open.splice(0).forEach((finish) => finish());
      await new Promise((resolve) => setImmediate(resolve));
    }
  };
  return { push, batches, settle };
}

describe('group commit', () => {
  it('writes a lone item at once, and everything that arrived meanwhile as the next batch', async () => {
    const g = recorder({ lanes: 1 });
    const results = [1, 2, 3, 4, 5].map((n) => g.push({ key: `d${n}`, n }));
    expect(g.batches).toEqual([[1]]);
    await g.settle();
    expect(g.batches).toEqual([[1], [2, 3, 4, 5]]);
    expect(await Promise.all(results)).toEqual(['done 1', 'done 2', 'done 3', 'done 4', 'done 5']);
  });

  it('keeps a batch to maxBatch items', async () => {
    const g = recorder({ lanes: 1, maxBatch: 2 });
    const results = [1, 2, 3, 4, 5].map((n) => g.push({ key: `d${n}`, n }));
    await g.settle();
    await Promise.all(results);
    expect(g.batches).toEqual([[1], [2, 3], [4, 5]]);
  });

  it('never puts two items of one key in a batch or in two lanes, and keeps their order', async () => {
    const g = recorder({ lanes: 2 });
    const order: number[] = [];
    const results = [
      { key: 'a', n: 1 },
      { key: 'a', n: 2 },
      { key: 'b', n: 3 },
      { key: 'a', n: 4 },
      { key: 'c', n: 5 },
    ].map((item) => g.push(item).then(() => order.push(item.n)));
    // lane 1 took a1; lane 2 took what was free then: b3 (a2 waits for a1, a4 behind a2)
    expect(g.batches).toEqual([[1], [3]]);
    await g.settle();
    await Promise.all(results);
    expect(g.batches.flat().sort()).toEqual([1, 2, 3, 4, 5]);
    for (const batch of g.batches) {
      expect(batch.filter((n) => [1, 2, 4].includes(n)).length).toBeLessThanOrEqual(1);
    }
    expect(order.filter((n) => [1, 2, 4].includes(n))).toEqual([1, 2, 4]);
  });

  it('retries a failed batch item by item, so a bad item fails alone', async () => {
    const g = recorder({ lanes: 1, failWhen: (items) => items.some((i) => i.n === 3) });
    const results = [1, 2, 3, 4].map((n) => g.push({ key: `d${n}`, n }).catch((err: Error) => err.message));
    await g.settle();
    expect(await Promise.all(results)).toEqual(['done 1', 'done 2', 'batch 3 failed', 'done 4']);
    expect(g.batches).toEqual([[1], [2, 3, 4], [2], [3], [4]]);
  });
});
