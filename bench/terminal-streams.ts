// The streaming sessions of the terminal benchmark (bench/terminal.ts, part 3), in a process of
// their own: N agents each streaming 100 KB/s of a listing to its session, and N browser ends
// counting what arrives. Their work is what remote devices and browsers do on their own
// machines; in the measuring process it delayed the measured requests' own answers.
//
//   tsx bench/terminal-streams.ts --server URL --admin TOKEN --sessions N
//
// Prints `streaming N sessions` once every session streams, then `received BYTES at MS` every
// second (the browsers' output bytes so far); ends its sessions on SIGTERM.
import { parseArgs } from 'node:util';
import type { TerminalOpenMessage } from '../packages/contract/src/agent-protocol';
import { TerminalClient } from '../packages/server/test/support/terminal';
import { echoAgent, instanceAt, terminalText } from './terminal-rig';
import type { Rig } from './terminal-rig';

const { values } = parseArgs({
  options: {
    server: { type: 'string' },
    admin: { type: 'string' },
    sessions: { type: 'string', default: '50' },
  },
});
const server = instanceAt(values.server!);
const admin = values.admin!;
const SESSIONS = Number(values.sessions);

const rigs: Rig[] = [];
for (let i = 0; i < SESSIONS; i += 1) {
  rigs.push(await echoAgent(server, server, admin, `bench-stream-${i}`));
}
const terms: TerminalClient[] = [];
const streams: Array<() => void> = [];
for (const rig of rigs) {
  const term = await TerminalClient.open(server.url, rig.deviceId, admin, { keepOutput: false });
  const open: TerminalOpenMessage = await rig.agent.waitFor('terminal_open', () => true, 30_000);
  await term.until(() => term.frames.find((f) => f.type === 'started'), 15_000, 'started');
  terms.push(term);
  // 100 KB/s: 5 KiB of a listing every 50 ms
  const chunk = terminalText(5 * 1024).toString('base64');
  let seq = 1_000;
  const timer = setInterval(() => {
    seq += 1;
    rig.agent.send({ type: 'terminal_output', sessionId: open.sessionId, seq, data: chunk });
  }, 50);
  streams.push(() => clearInterval(timer));
}
console.log(`streaming ${SESSIONS} sessions`);
const report = setInterval(() => {
  console.log(`received ${terms.reduce((s, t) => s + t.outputBytes, 0)} at ${Date.now()}`);
}, 1000);

process.once('SIGTERM', () => {
  clearInterval(report);
  for (const stop of streams) {
    stop();
  }
  for (const t of terms) {
    t.close();
  }
  void Promise.all(terms.map((t) => t.waitForEnd().catch(() => undefined))).then(() => {
    for (const r of rigs) {
      r.agent.ws.close();
    }
    process.exit(0);
  });
});
