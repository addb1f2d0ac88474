import { ScriptInput } from '@outpost/contract/scripts';
import type { Db } from '../../db/client';
import type { SecretBox } from '../../lib/secret-box';
import { assertValidScript, fieldsOf, toStoredParams } from './script-fields';
import { insertScript } from './scripts.queries';

// The demo's script library (docs/product/scripts.md): a few everyday scripts, each exactly what
// a person could have saved through the API (the same schema and checks). Parameters reach the
// scripts as OUTPOST_<NAME> environment variables.

const DEMO_SCRIPTS: unknown[] = [
  {
    name: 'Disk usage report',
    description: 'Lists mounted file systems and the largest directories under a path.',
    category: 'Diagnostics',
    language: 'bash',
    os: 'linux',
    timeout_seconds: 120,
    params: [
      { name: 'path', label: 'Path to scan', type: 'text', default: '/var', pattern: '/.*' },
      { name: 'top', label: 'Directories to list', type: 'number', default: '10', min: 1, max: 50 },
    ],
    body: [
      '#!/usr/bin/env bash',
      'set -euo pipefail',
      'df -h',
      'echo',
      'echo "Largest directories under $OUTPOST_PATH:"',
      'du -xh --max-depth=1 "$OUTPOST_PATH" 2>/dev/null | sort -rh | head -n "$OUTPOST_TOP"',
      '',
    ].join('\n'),
  },
  {
    name: 'Restart print spooler',
    description: 'Restarts the Print Spooler service, optionally clearing stuck print jobs first.',
    category: 'Maintenance',
    language: 'powershell',
    os: 'windows',
    timeout_seconds: 120,
    params: [{ name: 'clear_queue', label: 'Clear stuck jobs', type: 'boolean', default: 'false' }],
    body: [
      'Stop-Service -Name Spooler -Force',
      "if ($env:OUTPOST_CLEAR_QUEUE -eq 'true') {",
      '  Remove-Item "$env:SystemRoot\\System32\\spool\\PRINTERS\\*" -Force -ErrorAction SilentlyContinue',
      '}',
      'Start-Service -Name Spooler',
      'Get-Service -Name Spooler | Format-List Name, Status',
      '',
    ].join('\r\n'),
  },
  {
    name: 'Flush DNS cache',
    description: 'Clears the resolver cache and shows the DNS servers in use.',
    category: 'Network',
    language: 'cmd',
    os: 'windows',
    timeout_seconds: 60,
    params: [],
    body: ['@echo off', 'ipconfig /flushdns', 'ipconfig /all | findstr /C:"DNS Servers"', ''].join('\r\n'),
  },
  {
    name: 'Collect system info',
    description: 'Gathers OS, CPU, memory and uptime facts; optionally posts them to an inventory endpoint.',
    category: 'Diagnostics',
    language: 'python',
    os: 'any',
    timeout_seconds: 300,
    params: [
      { name: 'format', label: 'Output format', type: 'select', options: ['text', 'json'], default: 'text' },
      { name: 'endpoint', label: 'Inventory URL (optional)', type: 'text', pattern: 'https://.+' },
      { name: 'api_token', label: 'Inventory API token', type: 'secret' },
    ],
    body: [
      'import json, os, platform, urllib.request',
      '',
      'info = {',
      '    "hostname": platform.node(),',
      '    "os": f"{platform.system()} {platform.release()}",',
      '    "machine": platform.machine(),',
      '    "python": platform.python_version(),',
      '    "cpus": os.cpu_count(),',
      '}',
      'if os.environ.get("OUTPOST_FORMAT") == "json":',
      '    print(json.dumps(info, indent=2))',
      'else:',
      '    for key, value in info.items():',
      '        print(f"{key:>10}: {value}")',
      '',
      'endpoint = os.environ.get("OUTPOST_ENDPOINT")',
      'if endpoint:',
      '    request = urllib.request.Request(endpoint, data=json.dumps(info).encode(), method="POST")',
      '    request.add_header("Content-Type", "application/json")',
      '    request.add_header("Authorization", "Bearer " + os.environ.get("OUTPOST_API_TOKEN", ""))',
      '    print("posted:", urllib.request.urlopen(request, timeout=30).status)',
      '',
    ].join('\n'),
  },
];

/** The demo scripts carry no secret values, so nothing is ever sealed here. */
const noSecrets: SecretBox = {
  seal() {
    throw new Error('demo scripts carry no secret values');
  },
  open: () => null,
};

export async function seedDemoScripts(
  db: Db,
  opts: { tenantId: number; userId: number; userName: string },
): Promise<number[]> {
  return db.transaction(async (tx) => {
    const ids: number[] = [];
    for (const raw of DEMO_SCRIPTS) {
      const input = ScriptInput.parse(raw);
      assertValidScript(input);
      const fields = fieldsOf(input, toStoredParams(input.params, [], noSecrets));
      const row = await insertScript(
        tx,
        { tenantId: opts.tenantId },
        fields,
        { userId: opts.userId, name: opts.userName },
        null,
      );
      ids.push(row.id);
    }
    return ids;
  });
}
