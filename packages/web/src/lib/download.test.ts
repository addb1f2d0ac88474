import { describe, expect, it } from 'vitest';
import { filenameOf } from './download';

// The saved file takes the name the server gives (docs/product/device-sets.md#exports).
describe('filenameOf', () => {
  it('reads the filename of a Content-Disposition, or falls back', () => {
    expect(filenameOf('attachment; filename="devices-2026-11-26.csv"', 'x.csv')).toBe(
      'devices-2026-11-26.csv',
    );
    expect(filenameOf('attachment; filename=audit.csv', 'x.csv')).toBe('audit.csv');
    expect(filenameOf(null, 'x.csv')).toBe('x.csv');
    expect(filenameOf('attachment', 'x.csv')).toBe('x.csv');
  });
});
