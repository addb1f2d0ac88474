import { afterEach, describe, expect, it, vi } from 'vitest';
import { MEMORY_LIMIT_EXIT_CODE, createMemoryCeiling, memoryLimitMb, watchMemory } from './memory-ceiling';

const MB = 1024 * 1024;

/** A memory reader and a clock the test moves by hand. */
function fakeProcess(startMb: number) {
  const state = { rssMb: startMb, at: 1_000_000 };
  return { state, readRss: () => state.rssMb * MB, now: () => state.at };
}

describe('the memory ceiling', () => {
  it('is exceeded only when the memory stays above the limit for the whole sustain time', () => {
    const p = fakeProcess(150);
    const ceiling = createMemoryCeiling({ limitMb: 200, sustainMs: 60_000, ...p });
    expect(ceiling.check().state).toBe('ok');
    p.state.rssMb = 250;
    expect(ceiling.check()).toEqual({ state: 'over', rssMb: 250, forMs: 0 });
    p.state.at += 30_000;
    expect(ceiling.check().state).toBe('over');
    p.state.at += 30_000;
    expect(ceiling.check()).toEqual({ state: 'exceeded', rssMb: 250, forMs: 60_000 });
  });

  it('starts counting again after the memory came back under the limit', () => {
    const p = fakeProcess(250);
    const ceiling = createMemoryCeiling({ limitMb: 200, sustainMs: 60_000, ...p });
    ceiling.check();
    p.state.at += 50_000;
    p.state.rssMb = 180;
    expect(ceiling.check().state).toBe('ok');
    p.state.rssMb = 250;
    p.state.at += 20_000;
    expect(ceiling.check()).toEqual({ state: 'over', rssMb: 250, forMs: 0 });
    p.state.at += 59_000;
    expect(ceiling.check().state).toBe('over');
  });

  it('never triggers with the limit 0 (off)', () => {
    const p = fakeProcess(5000);
    const ceiling = createMemoryCeiling({ limitMb: 0, sustainMs: 0, ...p });
    p.state.at += 3_600_000;
    expect(ceiling.check().state).toBe('ok');
  });

  it('takes its limit from OUTPOST_AGENT_MEMORY_LIMIT_MB when that is a whole number', () => {
    expect(memoryLimitMb(200, {})).toBe(200);
    expect(memoryLimitMb(200, { OUTPOST_AGENT_MEMORY_LIMIT_MB: '120' })).toBe(120);
    expect(memoryLimitMb(200, { OUTPOST_AGENT_MEMORY_LIMIT_MB: '0' })).toBe(0);
    expect(memoryLimitMb(200, { OUTPOST_AGENT_MEMORY_LIMIT_MB: 'lots' })).toBe(200);
    expect(memoryLimitMb(200, { OUTPOST_AGENT_MEMORY_LIMIT_MB: '-5' })).toBe(200);
  });
});

describe('watching the memory', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('reports, stops and exits with its own code once the limit is exceeded', async () => {
    vi.useFakeTimers();
    const p = fakeProcess(300);
    const calls: string[] = [];
    const exited = new Promise<number>((resolve) => {
      watchMemory({
        limitMb: 200,
        sustainMs: 90_000,
        intervalMs: 30_000,
        graceMs: 500,
        ...p,
        report: (message) => calls.push(`report ${message}`),
        stop: () => {
          calls.push('stop');
          return Promise.resolve();
        },
        exit: resolve,
      });
    });
    for (let i = 0; i < 3; i++) {
      p.state.at += 30_000;
      await vi.advanceTimersByTimeAsync(30_000);
    }
    expect(calls).toEqual([]);
    p.state.at += 30_000;
    await vi.advanceTimersByTimeAsync(30_000);
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatch(/^report The agent used 300 MB of memory, above its limit of 200 MB, for 90 s/);
    await vi.advanceTimersByTimeAsync(500);
    expect(await exited).toBe(MEMORY_LIMIT_EXIT_CODE);
    expect(calls).toEqual([calls[0], 'stop']);
  });

  it('does nothing while the memory stays under the limit', async () => {
    vi.useFakeTimers();
    const p = fakeProcess(120);
    const report = vi.fn();
    const exit = vi.fn();
    const watch = watchMemory({
      limitMb: 200,
      sustainMs: 0,
      intervalMs: 1000,
      ...p,
      report,
      stop: () => Promise.resolve(),
      exit,
    });
    await vi.advanceTimersByTimeAsync(60_000);
    watch.stop();
    expect(report).not.toHaveBeenCalled();
    expect(exit).not.toHaveBeenCalled();
  });
});
