import { useLayoutEffect, useMemo, useRef } from 'react';
import { outputLines } from '@outpost/contract/script-runs';
import { cn } from '../../../lib/cn';

// docs/product/scripts.md#results — one device's output as the script printed it: stdout and
// stderr in order, stderr tinted, monospace; it follows new lines unless the reader scrolled up.

const LEFT_OUT = /^… [\d,]+ bytes left out …$/;

export function RunOutput({ output, label }: { output: string; label: string }) {
  const lines = useMemo(() => outputLines(output), [output]);
  const box = useRef<HTMLDivElement>(null);
  const isFollowing = useRef(true);

  useLayoutEffect(() => {
    const el = box.current;
    if (el && isFollowing.current) {
      el.scrollTop = el.scrollHeight;
    }
  }, [lines.length, output]);

  return (
    <div
      ref={box}
      role="log"
      aria-label={label}
      aria-live="off"
      tabIndex={0}
      data-testid="run-output"
      onScroll={(e) => {
        const el = e.currentTarget;
        isFollowing.current = el.scrollHeight - el.scrollTop - el.clientHeight < 24;
      }}
      className="h-72 overflow-auto sm:h-96 rounded-md bg-slate-950 p-3 font-mono text-xs leading-5 text-slate-100 focus-visible:outline-2 focus-visible:outline-indigo-500"
    >
      {lines.length === 0 ? (
        <p className="text-slate-400">No output yet.</p>
      ) : (
        lines.map((line, i) => (
          <div
            // lines only grow at the end: the index is their identity
            key={i}
            data-stream={line.stream}
            className={cn(
              'break-all whitespace-pre-wrap',
              line.stream === 'stderr' && 'bg-red-950/60 text-red-300',
              LEFT_OUT.test(line.text) && 'text-amber-300 italic',
            )}
          >
            {line.stream === 'stderr' && <span className="sr-only">stderr: </span>}
            {line.text || '\u00a0'}
          </div>
        ))
      )}
    </div>
  );
}
