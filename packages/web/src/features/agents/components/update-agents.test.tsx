// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { AgentRelease } from '@outpost/contract/agent-releases';
import { releaseMessages } from '@outpost/contract/agent-releases';
import { OutdatedBadge, updateSummary } from './update-agents';

const linux = { platform: 'linux-x64', os_type: 'linux', version: '1.0.1' } as AgentRelease;

describe('agent updates on the Agents page', () => {
  afterEach(cleanup);

  it('badges an agent older than the release for its OS, and only that one', () => {
    render(
      <>
        <OutdatedBadge device={{ agent_version: '1.0.0', os_type: 'linux' }} releases={[linux]} />
        <OutdatedBadge device={{ agent_version: '1.0.1', os_type: 'linux' }} releases={[linux]} />
        <OutdatedBadge device={{ agent_version: '1.0.0', os_type: 'windows' }} releases={[linux]} />
        <OutdatedBadge device={{ agent_version: '1.0.0', os_type: 'linux' }} releases={undefined} />
      </>,
    );
    expect(screen.getAllByText('Outdated')).toHaveLength(1);
    expect(screen.getByTitle('Version 1.0.1 is published for this OS')).toBeInTheDocument();
  });

  it('sums up what was queued and why the others were skipped', () => {
    expect(
      updateSummary({
        queued: 2,
        updates: [
          { device_id: 1, command_id: 'a', from: '1.0.0', to: '1.0.1' },
          { device_id: 2, command_id: 'b', from: null, to: '1.0.1' },
        ],
        skipped: [
          { device_id: 3, hostname: 'x', reason: releaseMessages.skippedOffline },
          { device_id: 4, hostname: 'y', reason: releaseMessages.skippedOffline },
        ],
      }),
    ).toEqual({
      title: '2 agents updating to 1.0.1',
      message: `Each downloads the new version, checks it and restarts; one that cannot start rolls back. 2 skipped: ${releaseMessages.skippedOffline}.`,
    });
    expect(
      updateSummary({
        queued: 0,
        updates: [],
        skipped: [{ device_id: 3, hostname: 'x', reason: releaseMessages.skippedCurrent('1.0.1') }],
      }),
    ).toEqual({ title: 'No agents updated', message: '1 skipped: Already runs 1.0.1.' });
  });

  it('says an update in waves started, from the planned agents', () => {
    expect(
      updateSummary({
        queued: 2,
        job_id: 9,
        updates: [],
        planned: [
          { device_id: 1, from: '1.0.0', to: '1.0.1' },
          { device_id: 2, from: '1.0.0', to: '1.0.1' },
        ],
        skipped: [],
      }),
    ).toEqual({
      title: '2 agents updating to 1.0.1 in waves',
      message: 'The first wave starts now; each next wave waits for its gate.',
    });
  });
});
