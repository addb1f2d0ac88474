import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AgentRelease, UpdateAgentsResponse } from '@outpost/contract/agent-releases';
import type { TestServer } from '@outpost/server/test-support';
import { deviceCommands } from '@outpost/server/db/schema';
import { startTestServer, createEnrollmentToken, eventually } from '@outpost/server/test-support';
import { UPDATE_EXIT_CODE } from '@outpost/agent/update/updater';
import { createWinePrefix, patchVirtualAlloc2, wineUnavailableReason } from './wine-harness';
import type { WinePrefix, WineProcess } from './wine-harness';
import { portal } from '../support/portal';
import { EXE, buildWindowsAgent, installInPrefix } from './wine-support';
import { makeTestCertificate, signPe } from '@outpost/contract/test-support/signer';
import type { TestCertificate } from '@outpost/contract/test-support/signer';

// Self-update of the Windows single executable under Wine 8, from one build to the next: both
// built by the project's script with their own version, the newer published where the server's
// agent-releases routes serve it (AGENT_RELEASES_DIR), the update asked for through the portal's
// API. The agent downloads it, self-tests it, swaps it for the running executable and exits with
// UPDATE_EXIT_CODE; the test plays the service manager and starts the executable again whenever
// it exits. docs/agent-windows.md.
//
// Wine's workaround 1 (wine-harness.ts) holds for the new build too: the published file is the
// patched test copy, its sidecar's size and sha256 those of that copy, so the update checks,
// downloads and runs exactly what was published. That copy is then signed with a throwaway
// Authenticode certificate (osslsigncode), the server requires signed Windows releases
// (OUTPOST_AGENT_REQUIRE_SIGNATURE), and the update command names the signer: the agent checks
// the signature of the real executable under Wine before it swaps it in.

const unavailable = wineUnavailableReason();

describe.skipIf(unavailable !== null)('the Windows agent updating itself under Wine', () => {
  const OLD = '1.0.0-wine';
  const NEW = '1.0.1-wine';
  let wine: WinePrefix;
  let server: TestServer;
  let admin: string;
  let device: ReturnType<typeof installInPrefix>;
  let releases = '';
  let signer: TestCertificate;
  let service: WineProcess | null = null;
  let isStopping = false;
  const exits: (number | null)[] = [];
  const outputs: (() => string)[] = [];

  /** the service manager: runs the installed executable, and again whenever it exits */
  function startService() {
    const running = wine.start([device.winExe, 'run'], { env: device.env });
    service = running;
    outputs.push(() => running.output());
    void running.exited.then((code) => {
      exits.push(code);
      if (!isStopping) {
        startService();
      }
    });
  }

  beforeAll(async () => {
    wine = createWinePrefix();
    releases = path.join(wine.dir, 'releases');
    const [old, published] = await Promise.all([
      buildWindowsAgent(OLD, path.join(wine.dir, 'build-old')),
      buildWindowsAgent(NEW, releases),
    ]);
    device = installInPrefix(wine, old);
    // the published file becomes the patched copy, signed; its sidecar follows it
    patchVirtualAlloc2(published, published);
    fs.mkdirSync(path.join(wine.dir, 'signer'));
    signer = makeTestCertificate(path.join(wine.dir, 'signer'), 'signer', '/CN=Outpost Wine Test Signer');
    signPe(signer, published, `${published}.signed`);
    fs.renameSync(`${published}.signed`, published);
    const data = fs.readFileSync(published);
    const sidecarFile = `${published}.json`;
    const sidecar = JSON.parse(fs.readFileSync(sidecarFile, 'utf8')) as Record<string, unknown>;
    sidecar.sha256 = crypto.createHash('sha256').update(data).digest('hex');
    sidecar.size = data.length;
    sidecar.signer = { subject: 'CN=Outpost Wine Test Signer', sha256: signer.thumbprint };
    fs.writeFileSync(sidecarFile, JSON.stringify(sidecar, null, 2));
    server = await startTestServer({
      env: { AGENT_RELEASES_DIR: releases, OUTPOST_AGENT_REQUIRE_SIGNATURE: '1' },
    });
    await server.seedDemo();
    admin = (await server.devSignIn('admin@acme.example')).token;
  }, 600_000);

  afterAll(async () => {
    isStopping = true;
    if (service) {
      service.child.kill('SIGINT');
      await Promise.race([service.exited, new Promise((resolve) => setTimeout(resolve, 15_000))]);
      service.child.kill('SIGKILL');
    }
    await server?.close();
    wine?.close();
  });

  it(`updates ${OLD} → ${NEW}: download, self-test, swap, restart, online with the new version`, async () => {
    const api = portal(server, admin, 'windows');
    const listed = await server.request<{ data: AgentRelease[] }>('GET', '/api/agent/releases');
    expect(listed.body.data.find((r) => r.platform === 'win-x64')).toMatchObject({ version: NEW });

    const token = (await createEnrollmentToken(server, admin)).token;
    const enrolled = await wine.run(
      [device.winExe, 'enroll', '--server', server.url, '--token', token, '--no-external-ip'],
      { env: device.env },
    );
    expect(enrolled.stdout, enrolled.stderr).toContain('Enrolled');
    const { deviceGuid } = JSON.parse(fs.readFileSync(device.config, 'utf8')) as { deviceGuid: string };
    startService();
    const before = await eventually(async () => {
      const d = await api.device(deviceGuid);
      return d?.status === 'online' && d.agentVersion === OLD ? d : null;
    }, 120_000);

    const res = await api.call<UpdateAgentsResponse>('POST', '/api/customer/agents/update', {
      device_ids: [before.id],
    });
    expect(res.status).toBe(200);
    expect(res.body.data.updates).toMatchObject([{ device_id: before.id, from: OLD, to: NEW }]);
    const commandId = res.body.data.updates[0]!.command_id;
    const [sent] = await server.database.db
      .select({ payload: deviceCommands.payload })
      .from(deviceCommands)
      .where(eq(deviceCommands.id, commandId));
    const builds = (sent?.payload as { builds: { signer_sha256?: string }[] }).builds;
    expect(builds.map((b) => b.signer_sha256)).toEqual([signer.thumbprint]);

    // answered by the new version once the server has welcomed it
    const done = await eventually(async () => {
      const [row] = await server.database.db
        .select()
        .from(deviceCommands)
        .where(eq(deviceCommands.id, commandId));
      return row?.status === 'completed' || row?.status === 'failed' ? row : null;
    }, 240_000);
    const log = outputs.map((o) => o()).join('\n----\n');
    expect(done.error, log).toBeNull();
    expect(done.result).toMatchObject({ version: NEW, previousVersion: OLD });
    // the old one exited for the update once, and only that; its log tells the steps
    expect(exits).toEqual([UPDATE_EXIT_CODE]);
    expect(outputs[0]!()).toContain(`update: ${OLD} → ${NEW} swapped in; restarting`);
    expect(outputs[1]!()).toContain(`update: now running ${NEW} (was ${OLD})`);

    const after = await eventually(async () => {
      const d = await api.device(deviceGuid);
      return d?.status === 'online' && d.agentVersion === NEW ? d : null;
    }, 60_000);
    expect(after.id).toBe(before.id);
    // the executable in place is the published one; the previous copy and the marker are gone
    const installed = fs.readFileSync(device.exe);
    expect(crypto.createHash('sha256').update(installed).digest('hex')).toBe(
      crypto
        .createHash('sha256')
        .update(fs.readFileSync(path.join(releases, EXE)))
        .digest('hex'),
    );
    const version = await wine.run([device.winExe, '--version'], { env: device.env });
    expect(version).toMatchObject({ code: 0, stdout: `${NEW}\n` });
    await eventually(
      () => Promise.resolve(fs.readdirSync(device.home).every((f) => !f.includes('.previous')) || null),
      30_000,
    );
    expect(fs.readdirSync(device.home).sort()).toEqual(['config', EXE, 'keepalive.cjs'].sort());
  }, 420_000);
});
