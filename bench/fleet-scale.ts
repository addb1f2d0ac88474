// The fleet benchmark past one process's limits (docs/decisions/2026-11-27-fifty-thousand-agents.md):
// a server of several worker processes (WEB_WORKERS) is measured as its whole process tree, and the
// simulator runs as several processes, each binding its own loopback source address (127.0.0.2,
// 127.0.0.3 …): one process may hold fewer sockets than the open-file limit, and one source address
// has ~28,000 ephemeral ports towards the server.
import fs from 'node:fs';
import { cpuSeconds, rssKb, startSim, type Sim } from './fleet-setup';

/** pid and every descendant's pid (a worker-mode server's primary and its workers). */
export function treePids(root: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) {
      continue;
    }
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
    } catch {
      // the process ended while the list was read
    }
  }
  const out: number[] = [];
  const walk = (pid: number) => {
    out.push(pid);
    (children.get(pid) ?? []).forEach(walk);
  };
  walk(root);
  return out;
}

const sumOver = (root: number, read: (pid: number) => number) =>
  treePids(root).reduce((sum, pid) => {
    try {
      return sum + read(pid);
    } catch {
      return sum;
    }
  }, 0);

/** RSS of the process and its descendants, KB */
export const treeRssKb = (root: number) => sumOver(root, rssKb);
/** CPU seconds of the process and its living descendants */
export const treeCpuSeconds = (root: number) => sumOver(root, cpuSeconds);

export type Sims = {
  pids(): number[];
  connections(): number[];
  output(): string;
  stop(): Promise<void>;
};

/**
 * `devices` agents in `processes` simulator processes; with more than one, process k binds
 * 127.0.0.(k + 2) and has its own seed (distinct machines).
 */
export async function startSims(options: {
  server: string;
  token: string | string[];
  devices: number;
  processes: number;
  enrollConcurrency?: number;
  noSoftware?: boolean;
}): Promise<Sims> {
  const share = Math.ceil(options.devices / options.processes);
  const sims: Sim[] = await Promise.all(
    Array.from({ length: options.processes }, (_, k) =>
      startSim({
        server: options.server,
        token: options.token,
        devices: Math.min(share, options.devices - k * share),
        enrollConcurrency: options.enrollConcurrency,
        noSoftware: options.noSoftware,
        ...(options.processes > 1 && { localAddress: `127.0.0.${k + 2}`, seed: k + 1 }),
      }),
    ),
  );
  return {
    pids: () => sims.map((s) => s.process.pid!),
    connections: () => sims.flatMap((s) => s.connections()),
    output: () => sims.map((s) => s.output().slice(-2000)).join('\n---\n'),
    async stop() {
      await Promise.all(sims.map((s) => s.stop()));
    },
  };
}
