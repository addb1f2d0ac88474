import { describe, expect, it } from 'vitest';
import { toSampleRow } from './metrics-ingest';
import { rollupWindow } from './metrics-rollup';

// docs/product/monitoring.md#metrics: which samples are kept and what a rollup run covers.

const NOW = Date.parse('2026-11-27T10:07:30Z');
const message = (sampledAt: string) => ({
  type: 'metrics' as const,
  sampledAt,
  cpu: 12.345,
  cpuMax: 10,
  memory: 50,
  volumes: [
    { mount: '/', usedPercent: 40 },
    { mount: '/data', usedPercent: 91.5, totalBytes: 1000, freeBytes: 85 },
  ],
});

describe('toSampleRow', () => {
  it('stores hundredths of a percent at the sample’s minute, the fullest volume as disk', () => {
    const sample = toSampleRow(7, message('2026-11-27T10:06:59Z'), NOW);
    expect(sample).toEqual({
      row: {
        deviceId: 7,
        minute: Date.parse('2026-11-27T10:06:00Z') / 60_000,
        cpu: 1235,
        cpuMax: 1235,
        memory: 5000,
        disk: 9150,
      },
      volumes: {
        deviceId: 7,
        minute: Date.parse('2026-11-27T10:06:00Z') / 60_000,
        volumes: [
          { mount: '/', used: 4000, total: null, free: null },
          { mount: '/data', used: 9150, total: 1000, free: 85 },
        ],
      },
    });
  });

  it('refuses a time that is not one, older than 24 hours, or more than five minutes ahead', () => {
    expect(toSampleRow(1, message('yesterday'), NOW)).toEqual({ refused: 'too_old' });
    expect(toSampleRow(1, message('2026-11-26T10:07:00Z'), NOW)).toEqual({ refused: 'too_old' });
    expect(toSampleRow(1, message('2026-11-27T10:14:00Z'), NOW)).toEqual({ refused: 'future' });
    expect('row' in toSampleRow(1, message('2026-11-27T10:11:00Z'), NOW)).toBe(true);
  });
});

describe('rollupWindow', () => {
  const minute = (iso: string) => Date.parse(iso) / 60_000;
  it('rolls the finished buckets since the last run, none that is still filling', () => {
    const now = minute('2026-11-27T10:16:00Z');
    expect(rollupWindow(minute('2026-11-27T09:45:00Z'), now, 2)).toEqual({
      from: minute('2026-11-27T09:45:00Z'),
      to: minute('2026-11-27T10:00:00Z'),
    });
    // 10:17: the 10:00 bucket is finished two minutes after its end
    expect(rollupWindow(minute('2026-11-27T10:00:00Z'), now + 1, 2).to).toBe(minute('2026-11-27T10:15:00Z'));
    expect(rollupWindow(minute('2026-11-27T10:15:00Z'), now, 2)).toEqual({
      from: minute('2026-11-27T10:15:00Z'),
      to: minute('2026-11-27T10:15:00Z'),
    });
  });

  it('starts a first run with the oldest minutes kept', () => {
    const now = minute('2026-11-27T10:16:00Z');
    expect(rollupWindow(0, now, 2).from).toBe(minute('2026-11-26T10:00:00Z'));
  });
});
