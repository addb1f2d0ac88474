import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// docs/api.md shows examples/deploy.ts whole; the integration test runs that file against a real
// server, so the guide shows code that is known to work only while the two are the same.

const root = path.resolve(import.meta.dirname, '../../..');
const MARKER = '<!-- example: packages/client/examples/deploy.ts';

/** The first ```ts block after the marker. */
function exampleInGuide(guide: string): string | null {
  const at = guide.indexOf(MARKER);
  if (at === -1) {
    return null;
  }
  const block = /```ts\n([\s\S]*?)```/.exec(guide.slice(at));
  return block?.[1] ?? null;
}

describe('the API guide', () => {
  it('shows examples/deploy.ts exactly as the file is', () => {
    const guide = fs.readFileSync(path.join(root, 'docs/api.md'), 'utf8');
    const example = fs.readFileSync(path.join(root, 'packages/client/examples/deploy.ts'), 'utf8');
    expect(exampleInGuide(guide)).toBe(example);
  });
});
