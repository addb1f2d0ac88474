import { useEffect, useRef, useState } from 'react';
import { Download, Pause, Play } from 'lucide-react';
import { Terminal } from '@xterm/xterm';
import type { TerminalSessionView } from '@outpost/contract/terminal';
import { Button } from '../../../../components/ui/button';
import { Dialog } from '../../../../components/ui/dialog';
import { Spinner } from '../../../../components/ui/spinner';
import { errorMessage } from '../../../../lib/api-client';
import { formatDateTime } from '../../../../lib/format';
import { fetchRecording } from '../../api/remote-terminal';
import { CastPlayer, parseCast } from './asciicast-player';
import { TERMINAL_THEME } from './terminal-theme';

// docs/product/remote-access.md#recording-and-replay: a session's recording played back in a
// terminal of its recorded size, with play/pause, the speed, and the .cast file to download.

const SPEEDS = [1, 2, 4, 8];
const clock = (s: number) => `${Math.floor(s / 60)}:${String(Math.floor(s % 60)).padStart(2, '0')}`;

export function ReplayDialog({
  session,
  onClose,
  onDownload,
}: {
  session: TerminalSessionView;
  onClose: () => void;
  onDownload: () => void;
}) {
  const boxRef = useRef<HTMLDivElement>(null);
  const playerRef = useRef<CastPlayer | null>(null);
  const termRef = useRef<Terminal | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [loaded, setLoaded] = useState(false);
  const [playing, setPlaying] = useState(false);
  const [position, setPosition] = useState(0);
  const [duration, setDuration] = useState(0);
  const [speed, setSpeed] = useState(1);

  useEffect(() => {
    const controller = new AbortController();
    let term: Terminal | null = null;
    fetchRecording(session.id, controller.signal)
      .then((text) => {
        const box = boxRef.current;
        if (!box) {
          return;
        }
        const cast = parseCast(text);
        term = new Terminal({
          cols: cast.width,
          rows: cast.height,
          disableStdin: true,
          fontSize: 12,
          fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace',
          theme: TERMINAL_THEME,
        });
        term.open(box);
        termRef.current = term;
        setDuration(cast.duration);
        setLoaded(true);
        const t = term;
        const player = new CastPlayer(
          cast,
          (data) => t.write(data),
          (cols, rows) => t.resize(cols, rows),
          (isPlaying, at) => {
            setPlaying(isPlaying);
            setPosition(at);
          },
        );
        playerRef.current = player;
        player.play(() => {
          t.reset();
          t.resize(cast.width, cast.height);
        });
      })
      .catch((err: unknown) => {
        if (!controller.signal.aborted) {
          setError(errorMessage(err, 'The recording could not be loaded'));
        }
      });
    return () => {
      controller.abort();
      playerRef.current?.stop();
      playerRef.current = null;
      term?.dispose();
    };
  }, [session.id]);

  const toggle = () => {
    const player = playerRef.current;
    if (player?.playing) {
      player.pause();
    } else {
      player?.play(() => {
        termRef.current?.reset();
        termRef.current?.resize(player.cast.width, player.cast.height);
      });
    }
  };

  return (
    <Dialog
      isOpen
      onClose={onClose}
      size="xl"
      title="Replay terminal session"
      description={`${session.user_name ?? 'Unknown'} on ${session.device_name ?? 'the device'}, ${formatDateTime(session.started_at)}`}
      footer={
        <Button variant="secondary" icon={<Download className="size-4" />} onClick={onDownload}>
          Download .cast
        </Button>
      }
    >
      <div className="space-y-3">
        <div className="flex flex-wrap items-center gap-3">
          <Button
            size="sm"
            icon={playing ? <Pause className="size-4" /> : <Play className="size-4" />}
            onClick={toggle}
            disabledReason={loaded ? undefined : 'Loading the recording'}
          >
            {playing ? 'Pause' : 'Play'}
          </Button>
          <label className="flex items-center gap-2 text-sm text-slate-600 dark:text-slate-300">
            Speed
            <select
              value={speed}
              onChange={(e) => {
                const s = Number(e.target.value);
                setSpeed(s);
                playerRef.current?.setSpeed(s);
              }}
              className="rounded-md border border-slate-300 bg-white px-2 py-1 text-sm dark:border-slate-700 dark:bg-slate-900"
            >
              {SPEEDS.map((s) => (
                <option key={s} value={s}>
                  {s}×
                </option>
              ))}
            </select>
          </label>
          <span
            className="text-sm text-slate-500 tabular-nums dark:text-slate-400"
            data-testid="replay-clock"
          >
            {clock(position)} / {clock(duration)}
          </span>
        </div>
        {error && <p className="text-sm text-red-600 dark:text-red-400">{error}</p>}
        <div className="overflow-auto rounded-lg bg-slate-950 p-2">
          {!loaded && !error && (
            <div className="flex justify-center py-16">
              <Spinner className="size-6 text-indigo-400" label="Loading the recording" />
            </div>
          )}
          <div ref={boxRef} data-testid="replay-screen" />
        </div>
      </div>
    </Dialog>
  );
}
