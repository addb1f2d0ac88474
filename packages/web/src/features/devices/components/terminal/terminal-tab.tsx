import { useEffect, useRef, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Clipboard, ClipboardPaste, Plug, PlugZap } from 'lucide-react';
import { FitAddon } from '@xterm/addon-fit';
import { Terminal } from '@xterm/xterm';
import '@xterm/xterm/css/xterm.css';
import type { Device } from '@outpost/contract/devices';
import { Button } from '../../../../components/ui/button';
import { Card, CardHeader } from '../../../../components/ui/card';
import { cn } from '../../../../lib/cn';
import { useUser } from '../../../../lib/auth';
import { deviceName } from '../../lib/device-format';
import { terminalSessionsKey } from '../../api/remote-terminal';
import { TerminalSessions } from './terminal-sessions';
import { TERMINAL_THEME } from './terminal-theme';
import { useTerminalSession } from './use-terminal-session';
import type { TerminalPhase } from './use-terminal-session';

// docs/product/remote-access.md#terminal: the Terminal tab of the device detail. Connect opens a
// session on the device (PowerShell or cmd on Windows, the default shell elsewhere); the terminal
// fills the panel and follows its size; copy and paste with the buttons or Ctrl+Shift+C/V.

function statusText(s: TerminalPhase): { text: string; tone: string } {
  switch (s.phase) {
    case 'idle':
      return { text: 'Not connected', tone: 'bg-slate-400' };
    case 'connecting':
      return { text: 'Connecting…', tone: 'bg-amber-400 animate-pulse' };
    case 'consent':
      return {
        text: 'Waiting for the user on the device to allow the session…',
        tone: 'bg-amber-400 animate-pulse',
      };
    case 'connected':
      return { text: `Connected · ${s.shell}`, tone: 'bg-emerald-500' };
    case 'ended':
      return {
        text: `Ended: ${s.message}`,
        tone: s.reason === 'exited' || s.reason === 'closed' ? 'bg-slate-400' : 'bg-red-500',
      };
  }
}

export default function TerminalTab({ device }: { device: Device }) {
  const user = useUser();
  const queryClient = useQueryClient();
  const windows = device.os_type === 'windows';
  const [shell, setShell] = useState(windows ? 'powershell' : 'default');
  const boxRef = useRef<HTMLDivElement>(null);
  const termRef = useRef<Terminal | null>(null);
  const session = useTerminalSession(
    device.id,
    () => void queryClient.invalidateQueries({ queryKey: terminalSessionsKey(user.tenant_id, device.id) }),
  );
  const { input, resize } = session;
  const live =
    session.state.phase === 'connecting' ||
    session.state.phase === 'consent' ||
    session.state.phase === 'connected';

  useEffect(() => {
    const box = boxRef.current;
    if (!box) {
      return;
    }
    const term = new Terminal({
      cursorBlink: true,
      fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace',
      fontSize: 13,
      theme: TERMINAL_THEME,
      scrollback: 5000,
    });
    const fit = new FitAddon();
    term.loadAddon(fit);
    term.open(box);
    fit.fit();
    term.onData(input);
    term.onResize(({ cols, rows }) => resize(cols, rows));
    term.attachCustomKeyEventHandler((e) => {
      if (e.type === 'keydown' && e.ctrlKey && e.shiftKey && e.code === 'KeyC') {
        void navigator.clipboard?.writeText(term.getSelection());
        return false;
      }
      if (e.type === 'keydown' && e.ctrlKey && e.shiftKey && e.code === 'KeyV') {
        void navigator.clipboard?.readText().then((text) => term.paste(text));
        return false;
      }
      return true;
    });
    const observer = new ResizeObserver(() => fit.fit());
    observer.observe(box);
    termRef.current = term;
    return () => {
      observer.disconnect();
      term.dispose();
      termRef.current = null;
    };
  }, [input, resize]);

  const status = statusText(session.state);
  return (
    <div className="space-y-6">
      <Card>
        <CardHeader
          title="Terminal"
          description={`A shell on ${deviceName(device)}. Every session is recorded.`}
          actions={
            <>
              {windows && (
                <label className="flex items-center gap-2 text-sm text-slate-600 dark:text-slate-300">
                  <span className="sr-only sm:not-sr-only">Shell</span>
                  <select
                    value={shell}
                    disabled={live}
                    onChange={(e) => setShell(e.target.value)}
                    className="rounded-md border border-slate-300 bg-white px-2 py-1.5 text-sm dark:border-slate-700 dark:bg-slate-900"
                  >
                    <option value="powershell">PowerShell</option>
                    <option value="cmd">cmd</option>
                  </select>
                </label>
              )}
              {live ? (
                <Button
                  variant="secondary"
                  size="sm"
                  icon={<Plug className="size-4" />}
                  onClick={session.disconnect}
                >
                  Disconnect
                </Button>
              ) : (
                <Button
                  size="sm"
                  icon={<PlugZap className="size-4" />}
                  onClick={() => termRef.current && session.connect(termRef.current, shell)}
                >
                  Connect
                </Button>
              )}
            </>
          }
        />
        <div className="flex flex-wrap items-center justify-between gap-2 border-b border-slate-200 px-5 py-2 dark:border-slate-800">
          <p
            role="status"
            className="flex min-w-0 items-center gap-2 text-sm text-slate-600 dark:text-slate-300"
          >
            <span className={cn('size-2 shrink-0 rounded-full', status.tone)} aria-hidden />
            <span className="truncate" data-testid="terminal-status">
              {status.text}
            </span>
          </p>
          <div className="flex items-center gap-1">
            <Button
              variant="ghost"
              size="sm"
              icon={<Clipboard className="size-4" />}
              title="Copy the selection (Ctrl+Shift+C)"
              onClick={() => void navigator.clipboard?.writeText(termRef.current?.getSelection() ?? '')}
            >
              Copy
            </Button>
            <Button
              variant="ghost"
              size="sm"
              icon={<ClipboardPaste className="size-4" />}
              title="Paste (Ctrl+Shift+V)"
              disabledReason={session.state.phase === 'connected' ? undefined : 'Connect first'}
              onClick={() => void navigator.clipboard?.readText().then((t) => termRef.current?.paste(t))}
            >
              Paste
            </Button>
          </div>
        </div>
        {session.notice && (
          <p className="border-b border-amber-200 bg-amber-50 px-5 py-2 text-sm text-amber-800 dark:border-amber-900 dark:bg-amber-950/40 dark:text-amber-200">
            {session.notice}
          </p>
        )}
        <div className="rounded-b-xl bg-slate-950 p-2">
          <div ref={boxRef} className="h-[26rem] w-full sm:h-[32rem]" data-testid="terminal-screen" />
        </div>
      </Card>
      <TerminalSessions deviceId={device.id} />
    </div>
  );
}
