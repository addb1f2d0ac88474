// Wine for the Windows agent suite (docs/agent-windows.md): Debian's wine and wine64 run the
// Windows single executable, wixl (msitools) builds the MSI the suite installs, osslsigncode
// signs and verifies the executable. `node scripts/wine.mjs` installs what is missing (apt) and
// prints what it found; `npm test` calls ensureWine() before the suite. The suite runs 64-bit
// programs only in a 64-bit prefix (WINEARCH=win64: node.exe, cmd, reg, ping, msiexec with an x64
// MSI), so no i386 architecture or wine32 is needed; Wine's "wine32 is missing" line is a warning.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const PACKAGES = ['wine', 'wine64', 'wixl', 'osslsigncode'];

function has(command) {
  return spawnSync('bash', ['-c', `command -v ${command}`], { stdio: 'ignore' }).status === 0;
}

/** A Debian package installed, or (elsewhere) a command of that name on PATH. */
function isInstalled(name) {
  if (has('dpkg-query')) {
    const r = spawnSync('dpkg-query', ['-W', '-f=${Status}', name], { encoding: 'utf8' });
    return r.status === 0 && r.stdout.includes('install ok installed');
  }
  return has(name);
}

/** Why this machine cannot run the suite at all, or null. */
export function wineUnsupportedReason() {
  if (process.platform !== 'linux' || process.arch !== 'x64') {
    return `the Windows agent suite needs Linux x64 with Wine (this is ${process.platform}-${process.arch})`;
  }
  if (!fs.existsSync('/usr/bin/apt-get') && !has('wine')) {
    return 'Wine is not installed and this is not a Debian system: install wine, wine64 and wixl';
  }
  return null;
}

/** Installs Wine, wixl and osslsigncode from Debian's packages when missing; true when all are there. */
export function ensureWine() {
  const missing = PACKAGES.filter((p) => !isInstalled(p));
  if (missing.length === 0) {
    return true;
  }
  if (wineUnsupportedReason()) {
    return false;
  }
  console.log(`Installing ${missing.join(', ')} from Debian's packages for the Windows agent suite`);
  const sudo = process.getuid?.() === 0 ? '' : 'sudo ';
  const ok =
    spawnSync(
      'bash',
      [
        '-c',
        `${sudo}apt-get update -qq && DEBIAN_FRONTEND=noninteractive ${sudo}apt-get install -y -qq ${missing.join(' ')}`,
      ],
      { stdio: 'inherit' },
    ).status === 0;
  if (!ok) {
    console.error(`Could not install ${missing.join(', ')} (sudo apt-get install ${missing.join(' ')}).`);
  }
  return PACKAGES.every(isInstalled);
}

if (process.argv[1] && path.resolve(process.argv[1]) === import.meta.filename) {
  const reason = wineUnsupportedReason();
  if (reason) {
    console.log(`Windows agent suite not available here: ${reason}`);
    process.exit(0);
  }
  process.exit(ensureWine() ? 0 : 1);
}
