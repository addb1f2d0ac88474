import fs from 'node:fs';
import type { WinePrefix } from './wine-harness';

// What runs inside a prefix. Wine 8's tasklist.exe is a stub that prints nothing, so the suite
// reads /proc instead: every Windows program Wine runs is a process of this machine with the
// prefix's WINEPREFIX in its environment and its Windows command line as its own.

export type PrefixProcess = { pid: number; commandLine: string };

/** The processes of this prefix whose command line contains `text` (all of them without). */
export function prefixProcesses(wine: WinePrefix, text = ''): PrefixProcess[] {
  const marker = `WINEPREFIX=${wine.env.WINEPREFIX}\0`;
  const found: PrefixProcess[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) {
      continue;
    }
    try {
      const environ = fs.readFileSync(`/proc/${entry}/environ`, 'latin1');
      if (!`${environ}\0`.includes(marker)) {
        continue;
      }
      const commandLine = fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8').replaceAll('\0', ' ').trim();
      if (commandLine.includes(text)) {
        found.push({ pid: Number(entry), commandLine });
      }
    } catch {
      // gone meanwhile, or not ours to read
    }
  }
  return found;
}

/** Ends the prefix's processes whose command line contains `text` (from outside, as the test's clean-up). */
export function killPrefixProcesses(wine: WinePrefix, text: string): number {
  const found = prefixProcesses(wine, text);
  for (const p of found) {
    try {
      process.kill(p.pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  return found.length;
}

/**
 * The step's processes as names: 'cmd.exe' for the shell the agent started, 'program' for what it
 * runs (Wine shows a program's command line without its image name), sorted.
 */
export function stepProcesses(wine: WinePrefix, program: string): string[] {
  return prefixProcesses(wine, program)
    .map((p) => (/^(\S*\\)?cmd\.exe\s/i.test(p.commandLine) ? 'cmd.exe' : 'program'))
    .sort();
}
