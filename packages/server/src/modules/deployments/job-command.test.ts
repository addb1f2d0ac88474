import { describe, expect, it } from 'vitest';
import { updateAgentOf } from './job-command';

// docs/product/rollouts.md#agent-updates-in-waves: an agent update job's row gets the update_agent
// command of its device's OS type.

const build = (platform: 'linux-x64' | 'darwin-arm64') => ({
  platform,
  version: '1.0.1',
  sha256: 'a'.repeat(64),
  size: 10,
  url: `/x/${platform}`,
});

describe('updateAgentOf', () => {
  const job = {
    agentUpdate: {
      linux: { version: '1.0.1', builds: [build('linux-x64')] },
      macos: { version: '1.0.2', builds: [build('darwin-arm64')] },
    },
  };

  it('picks the version and executables of the device’s OS type, whatever its case', () => {
    expect(updateAgentOf(job, 'linux')).toEqual({
      kind: 'update_agent',
      version: '1.0.1',
      builds: [build('linux-x64')],
    });
    expect(updateAgentOf(job, 'macOS')).toEqual({
      kind: 'update_agent',
      version: '1.0.2',
      builds: [build('darwin-arm64')],
    });
  });

  it('gives a device of another OS no executable (the agent refuses it)', () => {
    expect(updateAgentOf(job, 'windows')).toMatchObject({ kind: 'update_agent', builds: [] });
    expect(updateAgentOf({ agentUpdate: null }, null)).toMatchObject({ builds: [] });
  });
});
