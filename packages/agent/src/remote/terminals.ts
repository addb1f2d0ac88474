import type { AgentRemoteMessage, TerminalOpenMessage } from '@outpost/contract/agent-protocol';
import type { Consent } from './consent';
import type { PtySpawner } from './pty';
import type { RemoteHandlers, TerminalMessage } from './remote-access';
import { TerminalSession } from './terminal-session';
import { ShellUnavailable, shellCommand } from './terminal-shell';
import type { ShellCommand } from './terminal-shell';

// The agent's terminal sessions (docs/agent.md "Remote access"): terminal_open asks the device's
// user first when the policy wants consent, then starts the shell in a pseudo-terminal and says
// terminal_started; input, resize and close go to their session. Sessions end when the policy
// turns the terminal off, when the socket to the server closes, and when the agent stops.

/** the answer where node-pty cannot be loaded (pty.ts; the packaged agent) */
export const PTY_UNAVAILABLE = 'The terminal is not available in this agent build';

export type TerminalsDeps = {
  /** the pseudo-terminal, or null where it cannot be loaded (PTY_UNAVAILABLE) */
  spawner: () => Promise<PtySpawner | null>;
  consent: Consent;
  /** the program for a shell choice (terminal-shell.ts; the simulator gives its own) */
  command?: (shell: TerminalOpenMessage['shell']) => ShellCommand;
  log?: { warn(message: string, meta?: Record<string, unknown>): void };
};

export type Terminals = Required<Pick<RemoteHandlers, 'terminal' | 'policyChanged' | 'connectionLost'>> & {
  readonly count: number;
  closeAll(reason: 'closed', message: string): void;
};

export function createTerminals(deps: TerminalsDeps): Terminals {
  const sessions = new Map<string, TerminalSession>();
  /** sessions waiting for consent or their shell: a close aborts them */
  const opening = new Map<string, AbortController>();
  const command = deps.command ?? ((shell) => shellCommand(shell));

  async function open(m: TerminalOpenMessage, send: (message: AgentRemoteMessage) => void) {
    const exit = (reason: 'refused' | 'consent_denied' | 'error', message: string) =>
      send({ type: 'terminal_exit', sessionId: m.sessionId, reason, message });
    if (sessions.has(m.sessionId) || opening.has(m.sessionId)) {
      return; // a repeated open
    }
    const abort = new AbortController();
    opening.set(m.sessionId, abort);
    try {
      if (m.consent) {
        const refusal = await deps.consent.ask(m.requestedBy, abort.signal);
        if (abort.signal.aborted) {
          return;
        }
        if (refusal) {
          exit('consent_denied', refusal);
          return;
        }
      }
      let cmd: ShellCommand;
      try {
        cmd = command(m.shell);
      } catch (err) {
        exit('refused', err instanceof ShellUnavailable ? err.message : String(err));
        return;
      }
      const spawn = await deps.spawner();
      if (abort.signal.aborted) {
        return;
      }
      if (!spawn) {
        exit('error', PTY_UNAVAILABLE);
        return;
      }
      let pty;
      try {
        pty = spawn(cmd, { cols: m.cols, rows: m.rows });
      } catch (err) {
        exit('error', `The shell could not start: ${err instanceof Error ? err.message : String(err)}`);
        return;
      }
      send({ type: 'terminal_started', sessionId: m.sessionId, shell: cmd.file });
      const session = new TerminalSession(m.sessionId, pty, m, send, (s) => {
        sessions.delete(s.sessionId);
        if (m.banner) {
          deps.consent.banner(`The remote terminal session of ${m.requestedBy} ended.`);
        }
      });
      sessions.set(m.sessionId, session);
      if (m.banner) {
        deps.consent.banner(`${m.requestedBy} opened a remote terminal on this computer.`);
      }
    } finally {
      opening.delete(m.sessionId);
    }
  }

  const closeAll = (reason: 'closed', message: string) => {
    for (const a of opening.values()) {
      a.abort();
    }
    for (const s of [...sessions.values()]) {
      s.close(reason, message);
    }
  };

  return {
    get count() {
      return sessions.size;
    },
    closeAll,
    terminal(m: TerminalMessage, send: (message: AgentRemoteMessage) => void) {
      switch (m.type) {
        case 'terminal_open':
          void open(m, send).catch((err: unknown) => {
            deps.log?.warn('terminal failed to open', { err: String(err) });
            send({ type: 'terminal_exit', sessionId: m.sessionId, reason: 'error', message: String(err) });
          });
          return;
        case 'terminal_input':
          sessions.get(m.sessionId)?.input(Buffer.from(m.data, 'base64'));
          return;
        case 'terminal_resize':
          sessions.get(m.sessionId)?.resize(m.cols, m.rows);
          return;
        case 'terminal_close': {
          opening.get(m.sessionId)?.abort();
          sessions.get(m.sessionId)?.close('closed');
          return;
        }
      }
    },
    policyChanged(policy) {
      if (!policy.terminal) {
        closeAll('closed', 'The remote terminal was turned off for this device');
      }
    },
    connectionLost() {
      closeAll('closed', 'The connection to the server closed');
    },
  };
}
