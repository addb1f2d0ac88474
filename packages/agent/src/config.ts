import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { DEFAULT_MEMORY_LIMIT_MB } from './memory-ceiling';

// The agent's identity on disk. The file holds the device secret, so it is written readable only
// by its owner (0600) in a directory only the owner may enter (0700).

export const AgentConfig = z.object({
  server: z.url(),
  deviceGuid: z.string().min(1),
  agentSecret: z.string().min(1),
  /** where unacknowledged results wait for the next connection */
  stateDir: z.string().min(1),
  /** look up the external IP here (never required); null disables the look-up */
  externalIpUrl: z.url().nullable().default('https://api.ipify.org'),
  /**
   * the agent's memory ceiling in MB of resident memory, 0 for none (memory-ceiling.ts);
   * OUTPOST_AGENT_MEMORY_LIMIT_MB overrides it
   */
  memoryLimitMb: z.number().int().min(0).max(1_048_576).default(DEFAULT_MEMORY_LIMIT_MB),
  /**
   * false: the device owner turns remote access (terminal, file transfer) off on this device,
   * whatever the organisation allows (remote/remote-access.ts)
   */
  remote: z.boolean().default(true),
});
export type AgentConfig = z.infer<typeof AgentConfig>;

export function defaultConfigPath(): string {
  if (process.env.OUTPOST_AGENT_CONFIG) {
    return process.env.OUTPOST_AGENT_CONFIG;
  }
  if (process.platform === 'win32') {
    return path.join(process.env.ProgramData ?? 'C:\\ProgramData', 'Outpost', 'agent.json');
  }
  return path.join(os.homedir(), '.config', 'outpost-agent', 'agent.json');
}

export function loadAgentConfig(file: string): AgentConfig {
  let raw: string;
  try {
    raw = fs.readFileSync(file, 'utf8');
  } catch {
    throw new Error(
      `No agent configuration at ${file}. Enrol first: outpost-agent enroll --server URL --token T (from the repository: npm run agent -- enroll ...)`,
    );
  }
  const parsed = AgentConfig.safeParse(JSON.parse(raw));
  if (!parsed.success) {
    throw new Error(
      `The agent configuration at ${file} is invalid: ${parsed.error.issues[0]?.message ?? ''}`,
    );
  }
  return parsed.data;
}

export function saveAgentConfig(file: string, config: AgentConfig): void {
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  fs.mkdirSync(config.stateDir, { recursive: true, mode: 0o700 });
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, JSON.stringify(config, null, 2) + '\n', { mode: 0o600 });
  fs.chmodSync(tmp, 0o600);
  fs.renameSync(tmp, file);
}
