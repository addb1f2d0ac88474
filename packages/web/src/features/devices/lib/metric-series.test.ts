import { describe, expect, it } from 'vitest';
import type { MetricPoint } from '@outpost/contract/metrics';
import {
  bandPath,
  formatPercent,
  linePath,
  nearest,
  segments,
  seriesOf,
  summary,
  timeTicks,
} from './metric-series';

const T0 = Date.parse('2026-11-27T10:00:00Z');
const point = (minute: number, cpu: number | null, cpuMax: number | null = null): MetricPoint => ({
  at: new Date(T0 + minute * 60_000).toISOString(),
  cpu,
  cpu_max: cpuMax,
  memory: 50,
  memory_max: null,
  disk: null,
});

describe('metric series', () => {
  it('takes one metric’s values with their peaks, skipping points without a value', () => {
    const s = seriesOf([point(0, 10, 30), point(1, null), point(2, 20)], 'cpu');
    expect(s).toEqual([
      { t: T0, value: 10, max: 30 },
      { t: T0 + 120_000, value: 20, max: null },
    ]);
    expect(seriesOf([point(0, 10)], 'disk')).toEqual([]);
  });

  it('breaks the line where the device sent nothing for more than two and a half steps', () => {
    const s = seriesOf([point(0, 1), point(1, 2), point(3, 3), point(10, 4), point(11, 5)], 'cpu');
    expect(segments(s, 60).map((run) => run.map((p) => p.value))).toEqual([
      [1, 2, 3],
      [4, 5],
    ]);
  });

  it('draws lines and the peak band in the frame, a lone point as a dash', () => {
    const frame = { from: T0, to: T0 + 10 * 60_000, width: 100, height: 100 };
    const run = seriesOf([point(0, 0, 50), point(10, 100, 100)], 'cpu');
    expect(linePath(run, frame)).toBe('M0,100L100,0');
    expect(bandPath(run, frame)).toBe('M0,50L100,0L100,0L0,100Z');
    expect(bandPath(seriesOf([point(0, 1), point(1, 2)], 'cpu'), frame)).toBeNull();
    expect(linePath(seriesOf([point(5, 50)], 'cpu'), frame)).toBe('M48,50H52');
  });

  it('finds the nearest point to the pointer, none inside a gap', () => {
    const s = seriesOf([point(0, 1), point(1, 2), point(30, 3)], 'cpu');
    expect(nearest(s, T0 + 40_000, 60)?.value).toBe(2);
    expect(nearest(s, T0 + 15 * 60_000, 60)).toBeNull();
    expect(nearest([], T0, 60)).toBeNull();
  });

  it('summarises the latest value and the peak; formats percentages', () => {
    expect(summary(seriesOf([point(0, 10, 95), point(1, 20)], 'cpu'))).toEqual({ latest: 20, peak: 95 });
    expect(summary([])).toEqual({ latest: null, peak: null });
    expect([formatPercent(null), formatPercent(0), formatPercent(7.25), formatPercent(42.4)]).toEqual([
      '—',
      '0 %',
      '7.3 %',
      '42 %',
    ]);
  });

  it('puts ticks inside the window: six for a day, seven for a week', () => {
    const to = T0 + 86_400_000;
    const day = timeTicks('24h', T0, to);
    expect(day.length).toBeGreaterThanOrEqual(5);
    expect(day.every((t) => t > T0 && t < to)).toBe(true);
    expect(timeTicks('7d', T0, T0 + 7 * 86_400_000)).toHaveLength(7);
  });
});
