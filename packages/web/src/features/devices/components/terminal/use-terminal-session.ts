import { useCallback, useEffect, useRef, useState } from 'react';
import type { Terminal } from '@xterm/xterm';
import type { TerminalServerMessage } from '@outpost/contract/terminal';
import { terminalRefusal, terminalSocketUrl } from '../../api/remote-terminal';

// One terminal session of the Terminal tab (docs/product/remote-access.md#terminal): the socket,
// what the terminal shows, and the status line's state. Output is written to xterm as bytes;
// keystrokes and pastes go out as text; the terminal's size follows the panel (resize messages).

export type TerminalPhase =
  | { phase: 'idle' }
  | { phase: 'connecting' }
  | { phase: 'consent' }
  | { phase: 'connected'; shell: string }
  | { phase: 'ended'; reason: string; message: string };

const fromBase64 = (data: string) => Uint8Array.from(atob(data), (c) => c.charCodeAt(0));

export function useTerminalSession(deviceId: number, onEnded: () => void) {
  const [state, setState] = useState<TerminalPhase>({ phase: 'idle' });
  const [notice, setNotice] = useState<string | null>(null);
  const socketRef = useRef<WebSocket | null>(null);
  const latestEnded = useRef(onEnded);
  useEffect(() => {
    latestEnded.current = onEnded;
  });

  const send = useCallback((message: unknown) => {
    const ws = socketRef.current;
    if (ws?.readyState === WebSocket.OPEN) {
      ws.send(JSON.stringify(message));
    }
  }, []);

  const connect = useCallback(
    (term: Terminal, shell: string) => {
      socketRef.current?.close();
      term.reset();
      setNotice(null);
      setState({ phase: 'connecting' });
      const size = { shell, cols: term.cols, rows: term.rows };
      const ws = new WebSocket(terminalSocketUrl(deviceId, size));
      socketRef.current = ws;
      let opened = false;
      let ended = false;
      ws.onopen = () => {
        opened = true;
      };
      ws.onmessage = (event: MessageEvent<string>) => {
        const m = JSON.parse(event.data) as TerminalServerMessage;
        switch (m.type) {
          case 'status':
            setState({ phase: m.state === 'consent' ? 'consent' : 'connecting' });
            return;
          case 'started':
            setState({ phase: 'connected', shell: m.shell });
            term.focus();
            return;
          case 'output':
            term.write(fromBase64(m.data));
            return;
          case 'notice':
            setNotice(m.message);
            return;
          case 'ended':
            ended = true;
            setState({ phase: 'ended', reason: m.reason, message: m.message });
            latestEnded.current();
            return;
        }
      };
      ws.onclose = () => {
        if (socketRef.current === ws) {
          socketRef.current = null;
        }
        if (ended) {
          return;
        }
        if (!opened) {
          void terminalRefusal(deviceId, size).then((message) =>
            setState({
              phase: 'ended',
              reason: 'refused',
              message: message ?? 'The terminal could not connect',
            }),
          );
          return;
        }
        setState({ phase: 'ended', reason: 'disconnected', message: 'The connection to the server closed' });
        latestEnded.current();
      };
    },
    [deviceId],
  );

  const disconnect = useCallback(() => send({ type: 'close' }), [send]);
  const input = useCallback((data: string) => send({ type: 'input', data }), [send]);
  const resize = useCallback((cols: number, rows: number) => send({ type: 'resize', cols, rows }), [send]);

  // leaving the tab closes the session
  useEffect(() => () => socketRef.current?.close(), []);

  return { state, notice, connect, disconnect, input, resize };
}
