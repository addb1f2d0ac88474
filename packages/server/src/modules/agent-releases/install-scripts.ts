import type { AgentRelease } from '@outpost/contract/agent-releases';

// The install scripts: served at /api/agent/install.sh and /api/agent/install.ps1 with
// this server's address and the sha256 of each published executable written in. The enrolment
// token is never part of the script or its URL: the administrator passes it as an argument
// (or OUTPOST_ENROLL_TOKEN), so it does not end up in proxy or access logs.

/**
 * The origin a device reaches this server at, from the request (behind a trusted proxy, its
 * X-Forwarded-* headers). Only a plain http(s) origin is written into a script: anything else
 * (a Host header with quotes, spaces or shell characters) is refused rather than escaped.
 */
export function scriptOrigin(protocol: string, host: string): string | null {
  if (!/^[A-Za-z0-9.\-[\]:]+$/.test(host) || (protocol !== 'http' && protocol !== 'https')) {
    return null;
  }
  let origin: string;
  try {
    origin = new URL(`${protocol}://${host}`).origin;
  } catch {
    return null;
  }
  return /^https?:\/\/[A-Za-z0-9.\-[\]:]+$/.test(origin) ? origin : null;
}

const sh = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;
const ps = (text: string) => `'${text.replace(/'/g, "''")}'`;

export const shellInstallCommand = (origin: string) =>
  `curl -fsSL ${origin}/api/agent/install.sh | sudo sh -s -- --token TOKEN`;
export const powershellInstallCommand = (origin: string) =>
  `& ([scriptblock]::Create((irm ${origin}/api/agent/install.ps1))) -Token TOKEN`;

/** POSIX sh (dash, busybox, bash, zsh): Linux and macOS. */
export function installSh(origin: string, releases: AgentRelease[]): string {
  const known = releases
    .filter((r) => r.os_type === 'linux' || r.os_type === 'macos')
    .map(
      (r) =>
        `    ${r.platform}) expected_sha256=${sh(r.sha256)}; expected_version=${sh(r.version)}; ` +
        `has_xz=${r.compressed?.xz ? 1 : 0}; has_gz=${r.compressed?.gz ? 1 : 0} ;;`,
    )
    .join('\n');
  return `#!/bin/sh
# Outpost agent installer for Linux and macOS, served by ${origin}
#
#   curl -fsSL ${origin}/api/agent/install.sh | sudo sh -s -- --token TOKEN
#
# Downloads the agent executable for this machine (xz- or gzip-compressed when published so and
# xz or gzip is here), checks the sha256 of the executable, and runs
# 'outpost-agent install --server URL --token TOKEN': it enrols the device and registers the agent
# as a service (systemd on Linux, launchd on macOS).
# Options: --token TOKEN (or OUTPOST_ENROLL_TOKEN); --no-service: no service, only put the
# executable into --install-dir DIR (or OUTPOST_INSTALL_DIR; default /usr/local/bin) and enrol it
# (--config PATH: where it keeps its identity). With OUTPOST_INSTALL_DIR the download stays there.
set -eu

OUTPOST_SERVER=${sh(origin)}
token="\${OUTPOST_ENROLL_TOKEN:-}"
install_dir="\${OUTPOST_INSTALL_DIR:-}"
config=""
register_service=1

fail() {
  echo "outpost: $*" >&2
  exit 1
}

while [ $# -gt 0 ]; do
  case "$1" in
    --token) [ $# -ge 2 ] || fail "--token needs a value"; token="$2"; shift 2 ;;
    --token=*) token="\${1#--token=}"; shift ;;
    --config) [ $# -ge 2 ] || fail "--config needs a value"; config="$2"; shift 2 ;;
    --config=*) config="\${1#--config=}"; shift ;;
    --install-dir) [ $# -ge 2 ] || fail "--install-dir needs a value"; install_dir="$2"; shift 2 ;;
    --install-dir=*) install_dir="\${1#--install-dir=}"; shift ;;
    --no-service) register_service=0; shift ;;
    -h|--help) sed -n '2,10p' "$0" 2>/dev/null || true; exit 0 ;;
    *) fail "unknown option $1 (options: --token TOKEN, --config PATH, --install-dir DIR, --no-service)" ;;
  esac
done

[ -n "$token" ] || fail "an enrolment token is required: --token TOKEN (create one in the portal: Agents, Install Agent)"

case "$(uname -s)" in
  Linux) os=linux ;;
  Darwin) os=darwin ;;
  *) fail "unsupported operating system $(uname -s); on Windows use install.ps1" ;;
esac
case "$(uname -m)" in
  x86_64 | amd64) arch=x64 ;;
  arm64 | aarch64) arch=arm64 ;;
  *) fail "unsupported processor $(uname -m)" ;;
esac
platform="$os-$arch"

expected_sha256=""
expected_version=""
has_xz=0
has_gz=0
case "$platform" in
${known}
    *) ;;
esac
[ -n "$expected_sha256" ] || fail "no agent executable for $platform is published on $OUTPOST_SERVER yet. Ask whoever administers your Outpost server to publish one (see Publishing an agent release in the Outpost documentation)."

work_dir="$install_dir"
if [ -z "$install_dir" ]; then
  [ "$(id -u)" = 0 ] || fail "run as root: curl -fsSL $OUTPOST_SERVER/api/agent/install.sh | sudo sh -s -- --token TOKEN"
  if [ "$register_service" = 1 ]; then
    # the service installation copies the executable to its own folder
    work_dir=$(mktemp -d)
    trap 'rm -rf "$work_dir"' EXIT INT TERM
  else
    work_dir=/usr/local/bin
  fi
fi
mkdir -p "$work_dir"
target="$work_dir/outpost-agent"
download="$work_dir/.outpost-agent.download.$$"
if [ -n "$install_dir" ]; then
  trap 'rm -f "$download"' EXIT INT TERM
fi

url="$OUTPOST_SERVER/api/agent/releases/$platform"
encoding=""
if [ "$has_xz" = 1 ] && command -v xz >/dev/null 2>&1; then
  encoding=xz
elif [ "$has_gz" = 1 ] && command -v gzip >/dev/null 2>&1; then
  encoding=gz
fi
packed="$download"
if [ -n "$encoding" ]; then
  url="$url?encoding=$encoding"
  packed="$download.$encoding"
  trap 'rm -f "$download" "$packed"; if [ -z "$install_dir" ] && [ "$register_service" = 1 ]; then rm -rf "$work_dir"; fi' EXIT INT TERM
fi
echo "outpost: downloading the agent $expected_version for $platform from $url"
if command -v curl >/dev/null 2>&1; then
  curl -fsSL -o "$packed" "$url" || fail "download failed: $url"
elif command -v wget >/dev/null 2>&1; then
  wget -q -O "$packed" "$url" || fail "download failed: $url"
else
  fail "curl or wget is needed to download the agent"
fi
case "$encoding" in
  xz) xz -dc "$packed" > "$download" || fail "the download does not decompress (xz): not installed"; rm -f "$packed" ;;
  gz) gzip -dc "$packed" > "$download" || fail "the download does not decompress (gzip): not installed"; rm -f "$packed" ;;
esac

if command -v sha256sum >/dev/null 2>&1; then
  actual_sha256=$(sha256sum "$download" | cut -d ' ' -f 1)
elif command -v shasum >/dev/null 2>&1; then
  actual_sha256=$(shasum -a 256 "$download" | cut -d ' ' -f 1)
elif command -v openssl >/dev/null 2>&1; then
  actual_sha256=$(openssl dgst -sha256 -r "$download" | cut -d ' ' -f 1)
else
  fail "sha256sum, shasum or openssl is needed to check the download"
fi
[ "$actual_sha256" = "$expected_sha256" ] || fail "the download's sha256 is $actual_sha256, expected $expected_sha256: not installed"

chmod 755 "$download"
mv -f "$download" "$target"

if [ "$register_service" = 1 ]; then
  "$target" install --server "$OUTPOST_SERVER" --token "$token"
  echo "outpost: the agent runs as a service; the device appears in the portal when it connects"
else
  echo "outpost: installed $target"
  if [ -n "$config" ]; then
    "$target" enroll --server "$OUTPOST_SERVER" --token "$token" --config "$config"
  else
    "$target" enroll --server "$OUTPOST_SERVER" --token "$token"
  fi
  echo "outpost: enrolled; start the agent with: $target run"
fi
`;
}

/**
 * Windows PowerShell 5.1 and PowerShell 7. With requireSignature the executable must carry a
 * valid Authenticode signature (Get-AuthenticodeSignature: Valid, so a certificate Windows trusts)
 * by the certificate the release names.
 */
export function installPs1(
  origin: string,
  releases: AgentRelease[],
  options: { requireSignature?: boolean } = {},
): string {
  const win = releases.find((r) => r.platform === 'win-x64');
  const signer = options.requireSignature ? (win?.signer_sha256 ?? '') : '';
  return `# Outpost agent installer for Windows, served by ${origin}
#
# In PowerShell run as Administrator:
#   & ([scriptblock]::Create((irm ${origin}/api/agent/install.ps1))) -Token TOKEN
#
# Downloads the agent executable (Brotli-compressed on PowerShell 7, gzip on Windows PowerShell
# 5.1, when published so), checks its sha256 (and its Authenticode signer when the server
# requires signed releases) and runs
# 'outpost-agent.exe install --server URL --token TOKEN': it enrols the device and registers the
# agent as a Windows service. Options: -Token (or $env:OUTPOST_ENROLL_TOKEN); -NoService: no
# service, only put the executable into -InstallDir (default $env:ProgramFiles\\Outpost) and enrol
# it (-Config PATH: where it keeps its identity).
param(
  [string]$Token = $env:OUTPOST_ENROLL_TOKEN,
  [string]$Config = '',
  [string]$InstallDir = '',
  [switch]$NoService
)
$ErrorActionPreference = 'Stop'
$OutpostServer = ${ps(origin)}
$ExpectedSha256 = ${ps(win?.sha256 ?? '')}
$ExpectedVersion = ${ps(win?.version ?? '')}
$ExpectedSigner = ${ps(signer)}
$RequireSignature = $${options.requireSignature ? 'true' : 'false'}
$HasBr = $${win?.compressed?.br ? 'true' : 'false'}
$HasGz = $${win?.compressed?.gz ? 'true' : 'false'}
$Platform = 'win-x64'

if (-not $Token) {
  throw 'An enrolment token is required: -Token TOKEN (create one in the portal: Agents, Install Agent)'
}
if (-not $ExpectedSha256) {
  throw "No agent executable for $Platform is published on $OutpostServer yet. Ask whoever administers your Outpost server to publish one (see Publishing an agent release in the Outpost documentation)."
}
if (-not [Environment]::Is64BitOperatingSystem) {
  throw 'The Outpost agent needs 64-bit Windows'
}
$principal = New-Object Security.Principal.WindowsPrincipal([Security.Principal.WindowsIdentity]::GetCurrent())
if (-not $principal.IsInRole([Security.Principal.WindowsBuiltInRole]::Administrator)) {
  throw 'Run PowerShell as Administrator: the agent is installed as a Windows service'
}
if ($NoService) {
  if (-not $InstallDir) {
    $InstallDir = if ($env:OUTPOST_INSTALL_DIR) { $env:OUTPOST_INSTALL_DIR } else { Join-Path $env:ProgramFiles 'Outpost' }
  }
  $WorkDir = $InstallDir
} else {
  # the service installation copies the executable to its own folder
  $WorkDir = Join-Path ([IO.Path]::GetTempPath()) ('outpost-' + [Guid]::NewGuid().ToString('N'))
}
New-Item -ItemType Directory -Force -Path $WorkDir | Out-Null
$Target = Join-Path $WorkDir 'outpost-agent.exe'
$Download = Join-Path $WorkDir 'outpost-agent.exe.download'

[Net.ServicePointManager]::SecurityProtocol = [Net.ServicePointManager]::SecurityProtocol -bor [Net.SecurityProtocolType]::Tls12
$Url = "$OutpostServer/api/agent/releases/$Platform"
$Encoding = ''
if ($HasBr -and $PSVersionTable.PSVersion.Major -ge 6) {
  # PowerShell 7 (.NET) has Brotli; Windows PowerShell 5.1 (.NET Framework) has only gzip
  try { Add-Type -AssemblyName System.IO.Compression.Brotli -ErrorAction Stop; $Encoding = 'br' } catch { }
}
if (-not $Encoding -and $HasGz) { $Encoding = 'gz' }
if ($Encoding) { $Url = "$Url" + '?encoding=' + $Encoding }
Write-Host "outpost: downloading the agent $ExpectedVersion for $Platform from $Url"
if ($Encoding) {
  $Packed = "$Download.$Encoding"
  Invoke-WebRequest -UseBasicParsing -Uri $Url -OutFile $Packed
  $In = [IO.File]::OpenRead($Packed)
  $Out = [IO.File]::Create($Download)
  try {
    $Mode = [IO.Compression.CompressionMode]::Decompress
    if ($Encoding -eq 'br') { $Unpack = New-Object IO.Compression.BrotliStream($In, $Mode) }
    else { $Unpack = New-Object IO.Compression.GZipStream($In, $Mode) }
    $Unpack.CopyTo($Out)
  } finally {
    if ($Unpack) { $Unpack.Dispose() }
    $Out.Dispose()
    $In.Dispose()
    Remove-Item -Force $Packed -ErrorAction SilentlyContinue
  }
} else {
  Invoke-WebRequest -UseBasicParsing -Uri $Url -OutFile $Download
}
$ActualSha256 = (Get-FileHash -Algorithm SHA256 -Path $Download).Hash.ToLowerInvariant()
if ($ActualSha256 -ne $ExpectedSha256) {
  Remove-Item -Force $Download
  throw "The download's sha256 is $ActualSha256, expected $ExpectedSha256: not installed"
}
Move-Item -Force -Path $Download -Destination $Target
if ($RequireSignature) {
  # Windows checks the signature and its chain; the signer must be the release's certificate
  $Signature = Get-AuthenticodeSignature -FilePath $Target
  $SignerSha256 = ''
  if ($Signature.SignerCertificate) {
    $Hash = [Security.Cryptography.SHA256]::Create().ComputeHash($Signature.SignerCertificate.RawData)
    $SignerSha256 = ([BitConverter]::ToString($Hash) -replace '-', '').ToLowerInvariant()
  }
  if ($Signature.Status -ne 'Valid' -or -not $ExpectedSigner -or $SignerSha256 -ne $ExpectedSigner) {
    Remove-Item -Force $Target
    throw "The executable's Authenticode signature is $($Signature.Status), signer $SignerSha256; expected Valid, signer $ExpectedSigner: not installed"
  }
}

if (-not $NoService) {
  & $Target install --server $OutpostServer --token $Token
  $Code = $LASTEXITCODE
  Remove-Item -Recurse -Force $WorkDir -ErrorAction SilentlyContinue
  if ($Code -ne 0) { throw "Installing the service failed (exit code $Code)" }
  Write-Host 'outpost: the agent runs as a service; the device appears in the portal when it connects'
} else {
  Write-Host "outpost: installed $Target"
  $EnrollArgs = @('enroll', '--server', $OutpostServer, '--token', $Token)
  if ($Config) { $EnrollArgs += @('--config', $Config) }
  & $Target @EnrollArgs
  if ($LASTEXITCODE -ne 0) { throw "Enrolment failed (exit code $LASTEXITCODE)" }
  Write-Host "outpost: enrolled; start the agent with: & '$Target' run"
}
`;
}
