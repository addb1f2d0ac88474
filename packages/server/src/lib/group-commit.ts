// Group commit: many callers' writes in one statement or transaction. An item waits while a batch
// is being written; the next batch takes every item that arrived meanwhile (up to `maxBatch`),
// `lanes` batches at a time. Under a trickle each item goes alone at once; under a flood the
// batches grow by themselves, so the statements per item fall as the load rises.
//
// - Items with the same key never share a batch or run in two lanes at once, and keep their
//   order: a device's second message waits for its first.
// - A batch that fails is retried item by item, so one bad item fails alone and the others are
//   written (the caller's `apply` runs each batch in its own transaction).

export type GroupCommitOptions<T, R> = {
  /** writes a batch; answers one result per item, in order */
  apply: (items: T[]) => Promise<R[]>;
  /** items with the same key are applied one after another, never in the same batch */
  keyOf: (item: T) => string | number;
  maxBatch: number;
  lanes: number;
};

type Waiting<T, R> = { item: T; resolve: (result: R) => void; reject: (err: unknown) => void };

export function createGroupCommit<T, R>(options: GroupCommitOptions<T, R>): (item: T) => Promise<R> {
  const { apply, keyOf, maxBatch, lanes } = options;
  const waiting: Waiting<T, R>[] = [];
  const busyKeys = new Set<string | number>();
  let running = 0;

  function take(): Waiting<T, R>[] {
    const batch: Waiting<T, R>[] = [];
    const rest: Waiting<T, R>[] = [];
    const blocked = new Set<string | number>();
    for (const w of waiting) {
      const key = keyOf(w.item);
      // a key already in flight, or already waiting behind one left out, keeps its order
      if (batch.length < maxBatch && !busyKeys.has(key) && !blocked.has(key)) {
        busyKeys.add(key);
        batch.push(w);
      } else {
        blocked.add(key);
        rest.push(w);
      }
    }
    waiting.splice(0, waiting.length, ...rest);
    return batch;
  }

  async function write(batch: Waiting<T, R>[]) {
    try {
      const results = await apply(batch.map((w) => w.item));
      batch.forEach((w, i) => w.resolve(results[i] as R));
      return;
    } catch (err) {
      if (batch.length === 1) {
        batch[0]?.reject(err);
        return;
      }
    }
    for (const w of batch) {
      await apply([w.item]).then((results) => w.resolve(results[0] as R), w.reject);
    }
  }

  function drain() {
    while (running < lanes && waiting.length > 0) {
      const batch = take();
      if (batch.length === 0) {
        return; // every waiting item's key is in flight
      }
      running++;
      void write(batch).finally(() => {
        for (const w of batch) {
          busyKeys.delete(keyOf(w.item));
        }
        running--;
        drain();
      });
    }
  }

  return (item) =>
    new Promise<R>((resolve, reject) => {
      waiting.push({ item, resolve, reject });
      drain();
    });
}
