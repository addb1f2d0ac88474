import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createFileJournal, createMemoryJournal } from './journal';

describe('deployment journal', () => {
  it('keeps the started deployments across restarts, readable only by the owner', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'journal-'));
    const file = path.join(dir, 'state', 'deployments.json');
    const first = createFileJournal(file);
    first.set('a', 'running');
    first.set('b', 'running');
    first.set('a', 'finished');
    const second = createFileJournal(file);
    expect([second.get('a'), second.get('b'), second.get('c')]).toEqual(['finished', 'running', undefined]);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    fs.writeFileSync(file, 'not json');
    expect(createFileJournal(file).get('a')).toBeUndefined();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('forgets the oldest commands first', () => {
    const journal = createMemoryJournal();
    for (let i = 0; i < 600; i++) {
      journal.set(`c${i}`, 'finished');
    }
    expect(journal.get('c0')).toBeUndefined();
    expect(journal.get('c599')).toBe('finished');
  });
});
