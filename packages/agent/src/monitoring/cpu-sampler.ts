import os from 'node:os';
import { CPU_SAMPLE_MS } from './monitor';

// CPU use from the kernel's counters (node:os, nothing loaded): one sample every CPU_SAMPLE_MS,
// the last hour kept in a fixed ring, so a cpu check averages over its minutes and the metrics
// take the minute's average and peak from the same samples (docs/agent.md "Checks and metrics").

export type CpuTimes = { busy: number; total: number };

/** The machine's CPU time so far, all cores together. */
export function readCpuTimes(): CpuTimes {
  let busy = 0;
  let total = 0;
  for (const cpu of os.cpus()) {
    const t = cpu.times;
    busy += t.user + t.nice + t.sys + t.irq;
    total += t.user + t.nice + t.sys + t.irq + t.idle;
  }
  return { busy, total };
}

const HOUR_SAMPLES = Math.ceil(3_600_000 / CPU_SAMPLE_MS);

export class CpuSampler {
  private readonly values = new Float32Array(HOUR_SAMPLES);
  private readonly times = new Float64Array(HOUR_SAMPLES);
  private count = 0;
  private head = 0;
  private last: CpuTimes;
  private lastAt: number;

  constructor(
    now: number,
    private readonly read: () => CpuTimes = readCpuTimes,
    private readonly everyMs = CPU_SAMPLE_MS,
  ) {
    this.last = read();
    this.lastAt = now;
  }

  /** Takes a sample when one is due. */
  tick(now: number) {
    if (now - this.lastAt < this.everyMs) {
      return;
    }
    const t = this.read();
    const total = t.total - this.last.total;
    const percent = total > 0 ? Math.min(100, Math.max(0, ((t.busy - this.last.busy) / total) * 100)) : 0;
    this.last = t;
    this.lastAt = now;
    this.push(now, percent);
  }

  /** Adds a sample as measured elsewhere (tests). */
  push(at: number, percent: number) {
    this.values[this.head] = percent;
    this.times[this.head] = at;
    this.head = (this.head + 1) % HOUR_SAMPLES;
    this.count = Math.min(this.count + 1, HOUR_SAMPLES);
  }

  /** Average and peak of the samples of the last `ms`; null without any. */
  over(ms: number, now: number): { average: number; peak: number } | null {
    let sum = 0;
    let peak = 0;
    let n = 0;
    for (let i = 1; i <= this.count; i++) {
      const at = (this.head - i + HOUR_SAMPLES) % HOUR_SAMPLES;
      if (now - this.times[at]! > ms) {
        break;
      }
      const v = this.values[at]!;
      sum += v;
      peak = Math.max(peak, v);
      n++;
    }
    return n === 0 ? null : { average: sum / n, peak };
  }
}

/** Memory in use, %: what is not available to programs (node:os reads MemAvailable on Linux). */
export function memoryUsedPercent(total = os.totalmem(), free = os.freemem()): number {
  return total > 0 ? Math.min(100, Math.max(0, ((total - free) / total) * 100)) : 0;
}
