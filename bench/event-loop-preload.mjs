// The server process's side of bench/event-loop.ts, given to it with `node --import`. Plain
// JavaScript: a TypeScript preload would load Node's type stripper into the measured process
// (about 20 MB of RSS that the server does not have).
import fs from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';

const target = process.env.OUTPOST_BENCH_EVENT_LOOP_FILE;
if (target) {
  const histogram = monitorEventLoopDelay({ resolution: 10 });
  histogram.enable();
  // a sample is the time between two turns of a 10 ms timer: the block is what is past the 10 ms
  const blockMs = (ns) => Math.max(0, Number((ns / 1e6 - 10).toFixed(1)));
  process.on('SIGUSR2', () => {
    const delay = {
      block_ms: histogram.count > 0 ? blockMs(histogram.max) : 0,
      p99_block_ms: histogram.count > 0 ? blockMs(histogram.percentile(99)) : 0,
      samples: histogram.count,
    };
    histogram.reset();
    fs.writeFileSync(`${target}.tmp`, JSON.stringify(delay));
    fs.renameSync(`${target}.tmp`, target);
  });
}
