import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestCertificate, signPe, WINE_PE } from '@outpost/contract/test-support/signer';
import { createAgentReleasesService } from './agent-releases.service';
import { createReleaseStore } from './release-store';

// Signed Windows releases: a throwaway certificate made here signs a small Windows program
// (Wine's hostname.exe, as scripts/sign-agent-exe.test.ts) with osslsigncode.

const sha = (data: Buffer) => crypto.createHash('sha256').update(data).digest('hex');

describe('release store: Windows signatures', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'outpost-release-sig-'));
  const at = (name: string) => path.join(dir, name);
  let thumbprint = '';
  let signed: Buffer;
  beforeAll(() => {
    const signer = makeTestCertificate(dir);
    thumbprint = signer.thumbprint;
    signPe(signer, WINE_PE, at('signed.exe'));
    signed = fs.readFileSync(at('signed.exe'));
  }, 60_000);
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  /** A releases folder with this Windows executable, and what the store and install.ps1 make of it. */
  async function publishWindows(body: Buffer, signer: string | null, requireSignature: boolean) {
    const releases = fs.mkdtempSync(path.join(dir, 'r-'));
    const file = path.join(releases, 'outpost-agent-win-x64.exe');
    fs.writeFileSync(file, body);
    const sidecar = {
      platform: 'win-x64',
      version: '1.0.1',
      sha256: sha(body),
      size: body.length,
      node: '24.1.0',
    };
    const signerField = signer ? { signer: { subject: 'CN=Outpost Test Signer', sha256: signer } } : {};
    fs.writeFileSync(`${file}.json`, JSON.stringify({ ...sidecar, ...signerField }));
    const warnings: string[] = [];
    const store = createReleaseStore(
      releases,
      { warn: (o: object) => warnings.push(JSON.stringify(o)) },
      {
        requireSignature,
      },
    );
    const service = createAgentReleasesService({ releases: store });
    const ps1 = await service.installScript('ps1', { protocol: 'https', host: 'outpost.example.com' });
    return { release: await store.get('win-x64'), ps1, warnings };
  }

  it('publishes a release signed by its sidecar’s signer; install.ps1 then requires that signer', async () => {
    const { release, ps1 } = await publishWindows(signed, thumbprint, true);
    expect(release?.signer_sha256).toBe(thumbprint);
    expect(ps1).toContain(`$ExpectedSigner = '${thumbprint}'`);
    expect(ps1).toContain('$RequireSignature = $true');
    expect(ps1).toContain('Get-AuthenticodeSignature -FilePath $Target');
  });

  it('with requireSignature, refuses an unsigned release and one whose signature does not verify', async () => {
    const unsigned = await publishWindows(fs.readFileSync(WINE_PE), null, true);
    expect(unsigned.release).toBeNull();
    expect(unsigned.warnings.join()).toContain('OUTPOST_AGENT_REQUIRE_SIGNATURE');
    const tampered = Buffer.from(signed);
    tampered[0x400] = tampered[0x400]! ^ 0xff;
    const broken = await publishWindows(tampered, thumbprint, true);
    expect(broken.release).toBeNull();
    expect(broken.warnings.join()).toContain('changed after it was signed');
  });

  it('refuses a release signed by another certificate than its sidecar names, even when not required', async () => {
    const { release, warnings } = await publishWindows(signed, 'ab'.repeat(32), false);
    expect(release).toBeNull();
    expect(warnings.join()).toContain('another certificate');
  });

  it('without requireSignature, publishes an unsigned release and install.ps1 checks no signature', async () => {
    const { release, ps1 } = await publishWindows(fs.readFileSync(WINE_PE), null, false);
    expect(release?.signer_sha256).toBeUndefined();
    expect(ps1).toContain('$RequireSignature = $false');
    expect(ps1).toContain("$ExpectedSigner = ''");
  });
});
