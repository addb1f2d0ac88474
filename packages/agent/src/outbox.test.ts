import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createFileOutbox } from './outbox';

describe('file outbox', () => {
  it('keeps unacknowledged messages across restarts, in order, readable only by the owner', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'outbox-'));
    const first = createFileOutbox(dir);
    const msg = (id: string) => ({
      type: 'command_result' as const,
      messageId: id,
      commandId: `c-${id}`,
      status: 'completed' as const,
    });
    first.put(msg('a'));
    first.put(msg('b/../evil'));
    first.put(msg('c'));
    first.remove('a');
    // a new process reads what is left
    const second = createFileOutbox(dir);
    expect(second.list().map((m) => m.messageId)).toEqual(['b/../evil', 'c']);
    for (const f of fs.readdirSync(dir)) {
      expect(fs.statSync(path.join(dir, f)).mode & 0o777).toBe(0o600);
    }
    second.remove('b/../evil');
    expect(second.list().map((m) => m.messageId)).toEqual(['c']);
    fs.rmSync(dir, { recursive: true, force: true });
  });
});
