import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EnrollResult, HelloMessage } from '@outpost/contract/agent-protocol';
import type { DeploymentJob } from '@outpost/contract/deployments';
import type { Device } from '@outpost/contract/devices';
import type { ApiErrorBody } from '@outpost/contract/envelope';
import type { PackageDetail } from '@outpost/contract/packages';
import { startTestServer } from '../../../test/harness';
import type { TestServer } from '../../../test/harness';
import type { AgentSocket } from '../../../test/support/live';
import { createEnrollmentToken, enroll, eventually, facts, onlineAgent } from '../../../test/support/live';

// Packages reach only devices that run their architecture (docs/architecture.md "Package
// targets"): agents report theirs over the real enrolment and websocket, the server stores it, and
// a job naming a device that cannot run the package's build is refused with 409. A device that
// reports no architecture (an older agent) is let through.

type Envelope<T> = { success: true; data: T };
const PACKAGES = '/api/customer/deployment-packages';
const DEPLOYMENTS = '/api/customer/deployments';

describe('package architecture', () => {
  let server: TestServer;
  let token: string;
  const agents: AgentSocket[] = [];
  const ids: Record<string, number> = {};
  let seq = 0;

  const call = <T>(method: string, path: string, body?: unknown) =>
    server.request<T>(method, path, { token, body });

  /** An agent enrols and says hello as the real one does: with or without its architecture. */
  async function agent(hostname: string, osType: string, architecture?: string | null) {
    const enrolToken = (await createEnrollmentToken(server, token)).token;
    const arch = architecture === undefined ? {} : { architecture };
    const res = await enroll(server, enrolToken, facts({ hostname, osType, ...arch }));
    expect(res.status).toBe(200);
    const creds: EnrollResult = res.body.data;
    const hello: Partial<HelloMessage> = { hostname, osType, ...arch };
    agents.push(await onlineAgent(server.url, creds, hello));
    const device = await call<Envelope<Device>>('GET', `/api/customer/devices/${creds.device_guid}`);
    ids[hostname] = device.body.data.id;
    return device.body.data;
  }

  beforeAll(async () => {
    server = await startTestServer();
    await server.seedDemo();
    token = (await server.devSignIn('admin@acme.example')).token;
  });
  afterAll(async () => {
    await Promise.all(agents.map((a) => a.close()));
    await server?.close();
  });

  async function newPackage(target: 'windows' | 'linux', architecture: 'x64' | 'x86' | 'arm64') {
    const res = await call<Envelope<PackageDetail>>('POST', PACKAGES, {
      name: `Arch test ${++seq}`,
      target_os: target,
      architecture,
    });
    expect(res.status).toBe(200);
    const step = { step_name: 'Hello', step_type: 'CMD', step_details: { command: 'echo hello' } };
    expect((await call('POST', `${PACKAGES}/${res.body.data.id}/steps`, step)).status).toBe(200);
    return res.body.data;
  }

  const deploy = (packageId: number, hostnames: string[]) =>
    call<Envelope<DeploymentJob> | ApiErrorBody>('POST', DEPLOYMENTS, {
      package_id: packageId,
      device_ids: hostnames.map((h) => ids[h]),
      job_name: 'Architectures',
    });

  it('stores the architecture an agent reports, and null for none or one Outpost does not know', async () => {
    expect((await agent('ARCH-LINUX-ARM', 'linux', 'arm64')).architecture).toBe('arm64');
    expect((await agent('ARCH-LINUX-OLD', 'linux')).architecture).toBeNull();
    expect((await agent('ARCH-LINUX-RISC', 'linux', 'riscv64')).architecture).toBeNull();
    expect((await agent('ARCH-WIN-ARM', 'windows', 'ARM64')).architecture).toBe('arm64');
    expect((await agent('ARCH-WIN-X64', 'windows', 'x64')).architecture).toBe('x64');
  });

  it('refuses an x64 Linux package for an arm64 device with 409, naming it; an unknown one is let through', async () => {
    const pkg = await newPackage('linux', 'x64');
    const refused = await deploy(pkg.id, ['ARCH-LINUX-ARM', 'ARCH-LINUX-OLD']);
    expect(refused.status).toBe(409);
    const body = refused.body as ApiErrorBody;
    expect(body.code).toBe('DEVICE_ARCH_MISMATCH');
    expect(body.error).toContain('built for x64');
    expect(body.error).toContain('ARCH-LINUX-ARM (arm64)');
    expect(body.error).not.toContain('ARCH-LINUX-OLD');

    expect((await deploy(pkg.id, ['ARCH-LINUX-OLD', 'ARCH-LINUX-RISC'])).status).toBe(200);
    expect((await deploy((await newPackage('linux', 'arm64')).id, ['ARCH-LINUX-ARM'])).status).toBe(200);
  });

  it('runs x64 Windows packages on Windows on ARM, but not arm64 packages on x64', async () => {
    expect((await deploy((await newPackage('windows', 'x64')).id, ['ARCH-WIN-ARM'])).status).toBe(200);
    expect((await deploy((await newPackage('windows', 'x86')).id, ['ARCH-WIN-X64'])).status).toBe(200);
    const refused = await deploy((await newPackage('windows', 'arm64')).id, ['ARCH-WIN-X64', 'ARCH-WIN-ARM']);
    expect(refused.status).toBe(409);
    expect((refused.body as ApiErrorBody).error).toContain('ARCH-WIN-X64 (x64)');
    expect((refused.body as ApiErrorBody).error).not.toContain('ARCH-WIN-ARM');
  });

  it('takes the architecture from inventory facts, as the agent reports it later', async () => {
    const [socket] = agents;
    socket!.send({
      type: 'inventory',
      messageId: 'arch-inv-1',
      collectedAt: new Date().toISOString(),
      facts: { architecture: 'x64' },
    });
    await socket!.waitFor('ack', (m) => m.messageId === 'arch-inv-1');
    const device = await eventually(async () => {
      const d = (await call<Envelope<Device>>('GET', `/api/customer/devices/${ids['ARCH-LINUX-ARM']}`)).body
        .data;
      return d.architecture === 'x64' && d;
    });
    expect(device.architecture).toBe('x64');
  });
});
