import { useCallback, useEffect, useRef, useState } from 'react';
import type { FileTransfer } from '@outpost/contract/file-transfers';
import { errorMessage } from '../../../lib/api-client';
import { getTransfer, saveTransfer } from '../api/device-files';

// The Files tab's transfers of this visit (docs/product/remote-access.md#file-transfer): each is
// followed every second until it ends; a download whose bytes are ready is saved by the browser
// at once (the server then removes them). `onDone` hears each one that ended.

export type TrackedTransfer = FileTransfer & { saving?: boolean };

const POLL_MS = 1_000;

export function useFileTransfers(onDone: (t: FileTransfer) => void) {
  const [transfers, setTransfers] = useState<TrackedTransfer[]>([]);
  const done = useRef(onDone);
  useEffect(() => {
    done.current = onDone;
  });

  const put = useCallback((t: TrackedTransfer) => {
    setTransfers((list) => {
      const others = list.filter((x) => x.id !== t.id);
      return [t, ...others].slice(0, 20);
    });
  }, []);

  const active = transfers.filter((t) => t.status === 'pending' || (t.status === 'ready' && !t.saving));
  const activeIds = active.map((t) => t.id).join(',');

  useEffect(() => {
    if (!activeIds) {
      return;
    }
    let stopped = false;
    const timer = setInterval(() => {
      for (const id of activeIds.split(',')) {
        void getTransfer(id)
          .then(async (t) => {
            if (stopped) {
              return;
            }
            if (t.status === 'ready' && t.direction === 'download') {
              put({ ...t, saving: true });
              try {
                await saveTransfer(t);
                put({ ...t, status: 'completed' });
                done.current({ ...t, status: 'completed' });
              } catch (err) {
                put({ ...t, status: 'failed', error: errorMessage(err, 'The download could not be saved') });
              }
              return;
            }
            put(t);
            if (t.status !== 'pending') {
              done.current(t);
            }
          })
          .catch(() => undefined);
      }
    }, POLL_MS);
    return () => {
      stopped = true;
      clearInterval(timer);
    };
  }, [activeIds, put]);

  return { transfers, track: put };
}
