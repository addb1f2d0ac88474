import { describe, expect, it } from 'vitest';
import { MAX_FILE_LINES, MAX_FUNCTION_LINES, oversized } from './check-size.mjs';

// The size limits of docs/architecture.md "Rules" are enforced by scripts/check-size.mjs (run by
// `npm run lint`): these cases prove it fires, so a change that silently disables it fails here.
const body = (lines: number) => Array.from({ length: lines }, (_, i) => `  const v${i} = ${i};`).join('\n');

describe('size limits', () => {
  it('reports a file over the limit', () => {
    const text = Array.from({ length: MAX_FILE_LINES + 1 }, (_, i) => `export const c${i} = ${i};`).join(
      '\n',
    );
    expect(oversized('big.ts', `${text}\n`)).toEqual([
      { kind: 'file', name: 'big.ts', line: 1, lines: MAX_FILE_LINES + 1 },
    ]);
    expect(oversized('ok.ts', `${text.split('\n').slice(1).join('\n')}\n`)).toEqual([]);
  });

  it('reports functions, arrow functions, methods and components over the limit, by name', () => {
    const long = body(MAX_FUNCTION_LINES);
    const text = [
      `export function declared() {\n${long}\n}`,
      `export const arrow = () => {\n${long}\n};`,
      `export class Service {\n  method() {\n${long}\n  }\n}`,
      `export function Page() {\n${long}\n  return <div />;\n}`,
      `export function short() {\n${body(MAX_FUNCTION_LINES - 2)}\n}`,
    ].join('\n');
    const found = oversized('probe.tsx', text).filter((p) => p.kind === 'function');
    expect(found.map((p) => p.name)).toEqual(['declared', 'arrow', 'method', 'Page']);
    expect(found[0]).toMatchObject({ line: 1, lines: MAX_FUNCTION_LINES + 2 });
  });

  it('reports a callback passed to a call by the call it is passed to', () => {
    const text = `export default fp(async (app) => {\n${body(MAX_FUNCTION_LINES)}\n});\n`;
    expect(oversized('plugin.ts', text)).toEqual([
      { kind: 'function', name: 'callback of fp', line: 1, lines: MAX_FUNCTION_LINES + 2 },
    ]);
  });
});
