// Deploy a package to devices and wait for the result, with the typed client (docs/api.md).
// Run it:  OUTPOST_URL=https://outpost.example.com OUTPOST_TOKEN=... npx tsx examples/deploy.ts "Package name"
import { pathToFileURL } from 'node:url';
import { createOutpostClient, unwrap } from '@outpost/client';
import type { OutpostClient } from '@outpost/client';

export type DeployOptions = {
  /** the package to deploy, by its exact name */
  packageName: string;
  /** a job name for the deployment list */
  jobName: string;
  /** how often to ask for the job's state, and for how long at most */
  pollMs?: number;
  timeoutMs?: number;
  /** told each time the job is polled */
  onProgress?: (job: { status: string; completed_devices: number; failed_devices: number }) => void;
};

/** Deploys the package to every online device of its OS, then polls the job until it ends. */
export async function deployToOnlineDevices(client: OutpostClient, options: DeployOptions) {
  const { packageName, jobName, pollMs = 2_000, timeoutMs = 10 * 60_000 } = options;

  // 1. The package, by name (the list searches names; take the exact match).
  const packages = await unwrap(
    client.GET('/api/customer/deployment-packages', { params: { query: { search: packageName } } }),
  );
  const pkg = packages.data.find((p) => p.name === packageName);
  if (!pkg) {
    throw new Error(`No package is named "${packageName}"`);
  }

  // 2. The devices: online ones of the package's OS (a device signed in to counts as online).
  const devices = await unwrap(
    client.GET('/api/customer/devices', {
      params: { query: { status: 'online', os_type: pkg.target_os, limit: 100 } },
    }),
  );
  if (devices.data.length === 0) {
    throw new Error(`No ${pkg.target_os} device is online`);
  }

  // 3. The deployment: one job, one run per device.
  const job = await unwrap(
    client.POST('/api/customer/deployments', {
      body: { package_id: pkg.id, device_ids: devices.data.map((d) => d.id), job_name: jobName },
    }),
  );

  // 4. Poll the job until it has ended: completed, failed or cancelled.
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const current = await unwrap(
      client.GET('/api/customer/deployments/{id}', { params: { path: { id: job.id } } }),
    );
    options.onProgress?.(current);
    if (current.status !== 'pending' && current.status !== 'running') {
      return current;
    }
    if (Date.now() > deadline) {
      throw new Error(`Job ${job.id} is still ${current.status} after ${timeoutMs / 1000} s`);
    }
    await new Promise((resolve) => setTimeout(resolve, pollMs));
  }
}

// Run as a script: the token is an API token (or a signed-in session's token).
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const client = createOutpostClient({
    baseUrl: process.env.OUTPOST_URL ?? 'http://127.0.0.1:3000',
    token: process.env.OUTPOST_TOKEN ?? '',
  });
  const job = await deployToOnlineDevices(client, {
    packageName: process.argv[2] ?? '',
    jobName: `API deployment ${new Date().toISOString()}`,
    onProgress: (j) => console.log(`${j.status}: ${j.completed_devices} done, ${j.failed_devices} failed`),
  });
  for (const run of job.deployments) {
    console.log(
      `${run.hostname ?? run.device_guid}: ${run.status}${run.error_message ? ` (${run.error_message})` : ''}`,
    );
  }
  process.exitCode = job.status === 'completed' ? 0 : 1;
}
