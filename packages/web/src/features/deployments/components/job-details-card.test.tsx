// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
import { cleanup, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import type { DeploymentJobDetail } from '@outpost/contract/deployments';
import { JobDetailsCard } from './job-details-card';

// The job's details name who created it; a job of an automation policy links to the policy
// (docs/product/device-sets.md#automation-policies).

const job = (over: Partial<DeploymentJobDetail>): DeploymentJobDetail => ({
  id: 9,
  name: 'Deploy 7-Zip',
  description: null,
  status: 'completed',
  package_id: 1,
  package_name: '7-Zip',
  created_by_name: 'Alex',
  created_at: '2026-11-20T09:00:00Z',
  scheduled_at: null,
  started_at: null,
  completed_at: null,
  total_devices: 1,
  completed_devices: 1,
  failed_devices: 0,
  deployments: [],
  steps: [],
  ...over,
});

afterEach(cleanup);

describe('JobDetailsCard', () => {
  it("links a policy's job to its policy", () => {
    render(
      <MemoryRouter>
        <JobDetailsCard job={job({ policy_id: 4, created_by_name: 'Policy: Nightly patches' })} />
      </MemoryRouter>,
    );
    expect(screen.getByRole('link', { name: 'Policy: Nightly patches' })).toHaveAttribute(
      'href',
      '/policies/4',
    );
  });

  it('names the person who created any other job, without a link', () => {
    render(
      <MemoryRouter>
        <JobDetailsCard job={job({ policy_id: null })} />
      </MemoryRouter>,
    );
    expect(screen.getByText('Alex')).toBeInTheDocument();
    expect(screen.queryByRole('link')).not.toBeInTheDocument();
  });
});
