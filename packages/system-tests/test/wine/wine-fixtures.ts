import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';

// What the installer checks install: an MSI built with wixl (Debian's msitools) that writes a
// file and a registry value from a public property, and a plain HTTP server for URL sources.

export const MSI_KEY = 'HKLM\\Software\\OutpostWineMsi';
export const MSI_FOLDER = ['Program Files', 'OutpostWineTest'];

const WXS = `<?xml version="1.0" encoding="utf-8"?>
<Wix xmlns="http://schemas.microsoft.com/wix/2006/wi">
  <Product Id="*" Name="Outpost Wine Test" Language="1033" Version="1.0.0" Manufacturer="Outpost"
           UpgradeCode="6f1d2c1e-1b7a-4c55-9a53-4c0d2f7e9a11">
    <Package InstallerVersion="200" Compressed="yes" InstallScope="perMachine" />
    <Media Id="1" Cabinet="app.cab" EmbedCab="yes" />
    <Property Id="GREETING" Value="default" />
    <Directory Id="TARGETDIR" Name="SourceDir">
      <Directory Id="ProgramFiles64Folder">
        <Directory Id="INSTALLDIR" Name="OutpostWineTest">
          <Component Id="Main" Win64="yes" Guid="3b0f4a0e-9a9e-4d5c-8d0e-0b1f2a3c4d5e">
            <File Id="Readme" Source="readme.txt" KeyPath="yes" />
            <RegistryValue Root="HKLM" Key="Software\\OutpostWineMsi" Name="Greeting" Type="string" Value="[GREETING]" />
          </Component>
        </Directory>
      </Directory>
    </Directory>
    <Feature Id="All" Level="1"><ComponentRef Id="Main" /></Feature>
  </Product>
</Wix>
`;

/** An x64 MSI: readme.txt in Program Files\OutpostWineTest, Greeting=[GREETING] under MSI_KEY. */
export function buildMsi(dir: string): Buffer {
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'readme.txt'), 'installed by msiexec\r\n');
  fs.writeFileSync(path.join(dir, 'app.wxs'), WXS);
  execFileSync('wixl', ['-a', 'x64', '-o', 'app.msi', 'app.wxs'], { cwd: dir, stdio: 'ignore' });
  return fs.readFileSync(path.join(dir, 'app.msi'));
}

export const sha256 = (data: Buffer | string) => crypto.createHash('sha256').update(data).digest('hex');

export type Served = { body: Buffer; contentDisposition?: string };

/** Serves fixed files over plain HTTP on 127.0.0.1 (URL steps then need their Expected SHA-256). */
export async function startFileServer(files: Record<string, Served>) {
  const server = http.createServer((req, res) => {
    const file = files[req.url ?? ''];
    if (!file) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, {
      'content-type': 'application/octet-stream',
      'content-length': file.body.length,
      ...(file.contentDisposition && { 'content-disposition': file.contentDisposition }),
    });
    res.end(file.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
