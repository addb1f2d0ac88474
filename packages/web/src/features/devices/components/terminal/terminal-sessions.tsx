import { useState } from 'react';
import { Download, History, Play } from 'lucide-react';
import { TERMINAL_END_TEXT } from '@outpost/contract/terminal';
import type { TerminalSessionView } from '@outpost/contract/terminal';
import { Badge } from '../../../../components/ui/badge';
import { Button } from '../../../../components/ui/button';
import { Card, CardHeader } from '../../../../components/ui/card';
import { QueryState } from '../../../../components/ui/states';
import { Table, TBody, THead, Td, Th, Tr } from '../../../../components/ui/table';
import { useToast } from '../../../../components/ui/toast';
import { errorMessage } from '../../../../lib/api-client';
import { formatDateTime } from '../../../../lib/format';
import { downloadRecording, useTerminalSessions } from '../../api/remote-terminal';
import { ReplayDialog } from './replay-dialog';

// docs/product/remote-access.md#recording-and-replay: the device's terminal sessions, who opened
// them, when, for how long and why they ended; each recording replays here or downloads as a
// .cast file (asciinema's format).

export function duration(seconds: number | null): string {
  if (seconds === null) {
    return 'Running';
  }
  const m = Math.floor(seconds / 60);
  const s = seconds % 60;
  return m >= 60 ? `${Math.floor(m / 60)} h ${m % 60} min` : m > 0 ? `${m} min ${s} s` : `${s} s`;
}

export function TerminalSessions({ deviceId }: { deviceId: number }) {
  const query = useTerminalSessions(deviceId);
  const toast = useToast();
  const [replaying, setReplaying] = useState<TerminalSessionView | null>(null);
  const sessions = query.data ?? [];
  const download = (id: string) =>
    downloadRecording(id).catch((err: unknown) =>
      toast.show({
        type: 'error',
        title: 'Download failed',
        message: errorMessage(err, 'The recording could not be downloaded'),
      }),
    );
  return (
    <Card>
      <CardHeader
        title="Sessions"
        description="Every terminal session on this device, recorded for replay."
      />
      <QueryState
        isPending={query.isPending}
        error={query.error ? errorMessage(query.error, 'Failed to load the sessions') : null}
        errorTitle="Sessions could not be loaded"
        onRetry={() => void query.refetch()}
        isEmpty={sessions.length === 0}
        empty={{
          icon: <History className="size-6" />,
          title: 'No sessions yet',
          message: 'Sessions appear here once a terminal was opened.',
        }}
      >
        <Table cards aria-label="Terminal sessions">
          <THead>
            <tr>
              <Th sticky>Who</Th>
              <Th>Started</Th>
              <Th>Duration</Th>
              <Th>Shell</Th>
              <Th>Ended</Th>
              <Th className="text-right">Recording</Th>
            </tr>
          </THead>
          <TBody>
            {sessions.map((s) => (
              <Tr key={s.id}>
                <Td sticky data-label="Who" className="font-medium text-slate-900 dark:text-white">
                  {s.user_name ?? 'Unknown'}
                </Td>
                <Td data-label="Started" className="whitespace-nowrap">
                  {formatDateTime(s.started_at)}
                </Td>
                <Td data-label="Duration" className="whitespace-nowrap">
                  {duration(s.duration_seconds)}
                </Td>
                <Td data-label="Shell" className="font-mono text-xs">
                  {s.shell}
                </Td>
                <Td data-label="Ended">
                  {s.end_reason === null ? (
                    <Badge tone="green">Running</Badge>
                  ) : (
                    <span title={s.end_message ?? undefined}>
                      {s.end_message ?? TERMINAL_END_TEXT[s.end_reason]}
                    </span>
                  )}
                </Td>
                <Td data-label="Actions" className="text-right whitespace-nowrap">
                  {s.has_recording ? (
                    <div className="inline-flex gap-1">
                      <Button
                        variant="ghost"
                        size="sm"
                        icon={<Play className="size-4" />}
                        onClick={() => setReplaying(s)}
                      >
                        Replay
                      </Button>
                      <Button
                        variant="ghost"
                        size="sm"
                        icon={<Download className="size-4" />}
                        aria-label="Download the recording"
                        title="Download (.cast)"
                        onClick={() => void download(s.id)}
                      />
                    </div>
                  ) : (
                    <span className="text-slate-400">{s.end_reason === null ? 'Recording' : 'None'}</span>
                  )}
                </Td>
              </Tr>
            ))}
          </TBody>
        </Table>
      </QueryState>
      {replaying && (
        <ReplayDialog
          session={replaying}
          onClose={() => setReplaying(null)}
          onDownload={() => void download(replaying.id)}
        />
      )}
    </Card>
  );
}
