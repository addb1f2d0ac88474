import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { parseCsv } from '../../test/support/csv';
import { CSV_BOM, csvCell, csvChunks, csvFilename, csvLine, keysetPages, neutralise, wantsCsv } from './csv';

// lib/csv.ts: RFC 4180 quoting and formula neutralisation (docs/product/device-sets.md#exports).

const collect = async (chunks: AsyncIterable<string>) => {
  let text = '';
  for await (const c of chunks) {
    text += c;
  }
  return text;
};

async function* pagesOf<T>(pages: T[][]) {
  for (const p of pages) {
    yield await Promise.resolve(p);
  }
}

/** What a cell reads as once parsed: the text, with the escape's quote for a formula start. */
const expectedCell = (text: string) => (/^[=+\-@\t\r]/.test(text) ? `'${text}` : text);

describe('csv', () => {
  it('parses back to the input, modulo the formula escape (property)', async () => {
    const cell = fc.oneof(
      fc.string(),
      fc.string({ unit: fc.constantFrom('=', '+', '-', '@', '\t', '\r', '\n', '"', ',', 'a', 'é', ' ') }),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.array(cell, { minLength: 1, maxLength: 6 }), { maxLength: 8 }),
        async (rows) => {
          const header = ['a'];
          const text = await collect(csvChunks({ header, pages: pagesOf([rows]) }));
          expect(text.startsWith(CSV_BOM)).toBe(true);
          const parsed = parseCsv(text);
          expect(parsed).toEqual([header, ...rows.map((r) => r.map(expectedCell))]);
        },
      ),
    );
  });

  it('escapes cells a spreadsheet would run as a formula', () => {
    expect(csvCell('=HYPERLINK("http://x")')).toBe(`"'=HYPERLINK(""http://x"")"`);
    expect(csvCell('+1')).toBe("'+1");
    expect(csvCell('-2+3')).toBe("'-2+3");
    expect(csvCell('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvCell('\tx')).toBe("'\tx");
    expect(csvCell('\rx')).toBe(`"'\rx"`);
    expect(neutralise('plain')).toBe('plain');
    // numbers are data: a negative number stays a number
    expect(csvCell(-5)).toBe('-5');
  });

  it('quotes commas, quotes and line breaks; empty for null; ISO dates', () => {
    expect(csvLine(['a,b', 'say "hi"', 'two\nlines', null, undefined, true, 3])).toBe(
      '"a,b","say ""hi""","two\nlines",,,true,3\r\n',
    );
    expect(csvCell(new Date('2026-11-26T10:00:00.000Z'))).toBe('2026-11-26T10:00:00.000Z');
  });

  it('walks keyset pages until a short page', async () => {
    const all = Array.from({ length: 7 }, (_, i) => i + 1);
    const seen: (number | null)[] = [];
    const pages = keysetPages(
      (after: number | null, limit) => {
        seen.push(after);
        return Promise.resolve(all.filter((n) => n > (after ?? 0)).slice(0, limit));
      },
      (last) => last,
      3,
    );
    const out: number[][] = [];
    for await (const p of pages) {
      out.push(p);
    }
    expect(out).toEqual([[1, 2, 3], [4, 5, 6], [7]]);
    expect(seen).toEqual([null, 3, 6]);
  });

  it('recognises an Accept header asking for CSV and names files safely', () => {
    expect(wantsCsv('text/csv')).toBe(true);
    expect(wantsCsv('application/json, text/csv;q=0.9')).toBe(true);
    expect(wantsCsv('application/json')).toBe(false);
    expect(wantsCsv(undefined)).toBe(false);
    expect(csvFilename('software-Foo Bar/1.0', new Date('2026-11-26T00:00:00Z'))).toBe(
      'software-Foo-Bar-1.0-2026-11-26.csv',
    );
  });
});
