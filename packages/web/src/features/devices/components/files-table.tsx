import { Download, File, FileSymlink, Folder, HardDrive } from 'lucide-react';
import type { FsEntry } from '@outpost/contract/agent-protocol';
import { formatBytes } from '@outpost/contract/files';
import { Button } from '../../../components/ui/button';
import { Table, TBody, THead, Td, Th, Tr } from '../../../components/ui/table';
import { formatDateTime } from '../../../lib/format';

// The Files tab's listing (docs/product/remote-access.md#file-transfer): folders first (the
// server sorts), a double-click or Enter opens a folder, Download on a file.

function EntryIcon({ entry, isDrive }: { entry: FsEntry; isDrive: boolean }) {
  const cls = 'size-4 shrink-0';
  if (isDrive) {
    return <HardDrive className={`${cls} text-slate-500`} aria-hidden />;
  }
  if (entry.kind === 'dir') {
    return <Folder className={`${cls} fill-amber-100 text-amber-500 dark:fill-amber-500/20`} aria-hidden />;
  }
  if (entry.kind === 'link') {
    return <FileSymlink className={`${cls} text-slate-400`} aria-hidden />;
  }
  return <File className={`${cls} text-slate-400`} aria-hidden />;
}

export function FilesTable({
  entries,
  atDrives,
  onOpen,
  onDownload,
  busyName,
}: {
  entries: FsEntry[];
  atDrives: boolean;
  onOpen: (entry: FsEntry) => void;
  onDownload: (entry: FsEntry) => void;
  busyName: string | null;
}) {
  return (
    <Table cards aria-label="Files">
      <THead>
        <tr>
          <Th sticky>Name</Th>
          <Th className="text-right">Size</Th>
          <Th>Modified</Th>
          <Th>
            <span className="sr-only">Actions</span>
          </Th>
        </tr>
      </THead>
      <TBody>
        {entries.map((entry) => {
          const isDir = entry.kind === 'dir';
          return (
            <Tr
              key={entry.name}
              onDoubleClick={isDir ? () => onOpen(entry) : undefined}
              className={isDir ? 'cursor-pointer select-none' : undefined}
            >
              <Td sticky data-label="Name" className="max-w-[28rem]">
                <div className="flex min-w-0 items-center gap-2">
                  <EntryIcon entry={entry} isDrive={atDrives} />
                  {isDir ? (
                    <button
                      type="button"
                      onClick={() => onOpen(entry)}
                      className="truncate text-left font-medium text-slate-900 hover:text-indigo-600 hover:underline dark:text-white dark:hover:text-indigo-400"
                      title={`Open ${entry.name}`}
                    >
                      {entry.name}
                    </button>
                  ) : (
                    <span className="truncate" title={entry.name}>
                      {entry.name}
                    </span>
                  )}
                </div>
              </Td>
              <Td data-label="Size" className="text-right whitespace-nowrap tabular-nums">
                {entry.size === null ? '—' : formatBytes(entry.size)}
              </Td>
              <Td data-label="Modified" className="whitespace-nowrap">
                {entry.modifiedAt ? formatDateTime(entry.modifiedAt) : '—'}
              </Td>
              <Td data-label="Actions" className="text-right">
                {entry.kind === 'file' && (
                  <Button
                    size="sm"
                    variant="ghost"
                    icon={<Download className="size-3.5" />}
                    isLoading={busyName === entry.name}
                    onClick={() => onDownload(entry)}
                    aria-label={`Download ${entry.name}`}
                  >
                    Download
                  </Button>
                )}
              </Td>
            </Tr>
          );
        })}
      </TBody>
    </Table>
  );
}
