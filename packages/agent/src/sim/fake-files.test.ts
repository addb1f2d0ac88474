import { describe, expect, it } from 'vitest';
import type { AgentRemoteMessage } from '@outpost/contract/agent-protocol';
import { simulatedFiles } from './fake-files';

// The simulator's fake file system (fake-files.ts): what the Files tab shows a virtual device.
describe('simulated files', () => {
  const identity = { device_guid: 'g', agent_secret: 's' };
  const listOf = (osType: string, path: string) => {
    const sent: AgentRemoteMessage[] = [];
    simulatedFiles('http://127.0.0.1:9', identity, { facts: { osType }, users: ['alice'] })(
      { type: 'fs_list', requestId: 'r', path },
      (m) => sent.push(m),
    );
    return sent[0];
  };

  it('a Windows device lists its drives at the top, then folders of the user', () => {
    expect(listOf('windows', '/')).toMatchObject({ path: '', entries: [{ name: 'C:\\', kind: 'dir' }] });
    const docs = listOf('windows', 'C:\\Users\\alice\\Documents');
    expect(docs).toMatchObject({ path: 'C:\\Users\\alice\\Documents' });
    expect(docs?.type === 'fs_list_result' && docs.entries.map((e) => e.name)).toContain('budget.xlsx');
  });

  it('a Mac lists from /, and says when a folder does not exist', () => {
    const top = listOf('macos', '/');
    expect(top?.type === 'fs_list_result' && top.entries.map((e) => e.name)).toEqual([
      'Users',
      'etc',
      'tmp',
      'var',
    ]);
    expect(listOf('macos', '/nope')).toMatchObject({ error: 'No such file or folder: /nope' });
  });
});
