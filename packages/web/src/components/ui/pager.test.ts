import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { compactPages, pageWindow } from './pager';

describe('pageWindow (at most 5 page numbers)', () => {
  it('centres on the current page and stays within bounds', () => {
    expect(pageWindow(1, 3)).toEqual([1, 2, 3]);
    expect(pageWindow(1, 10)).toEqual([1, 2, 3, 4, 5]);
    expect(pageWindow(6, 10)).toEqual([4, 5, 6, 7, 8]);
    expect(pageWindow(10, 10)).toEqual([6, 7, 8, 9, 10]);
    expect(pageWindow(1, 0)).toEqual([]);
  });

  it('always shows the current page, never more than 5, consecutive and in range', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 500 }), fc.integer({ min: 1, max: 500 }), (a, b) => {
        const total = Math.max(a, b);
        const current = Math.min(a, b);
        const pages = pageWindow(current, total);
        expect(pages).toContain(current);
        expect(pages.length).toBe(Math.min(5, total));
        expect(pages[0]).toBeGreaterThanOrEqual(1);
        expect(pages[pages.length - 1]).toBeLessThanOrEqual(total);
        pages.forEach((p, i) => i > 0 && expect(p).toBe(pages[i - 1]! + 1));
      }),
    );
  });
});

describe('compactPages (docs/product/devices.md#lists)', () => {
  it('shows first, last and current ± 1 with gaps', () => {
    expect(compactPages(1, 1)).toEqual([1]);
    expect(compactPages(1, 10)).toEqual([1, 2, 'gap', 10]);
    expect(compactPages(5, 10)).toEqual([1, 'gap', 4, 5, 6, 'gap', 10]);
    expect(compactPages(3, 5)).toEqual([1, 2, 3, 4, 5]);
    expect(compactPages(10, 10)).toEqual([1, 'gap', 9, 10]);
  });
});
