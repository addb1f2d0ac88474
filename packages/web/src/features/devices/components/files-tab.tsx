import { useRef, useState } from 'react';
import type { FormEvent } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { ArrowUp, ChevronRight, FolderOpen, RefreshCw, Upload } from 'lucide-react';
import type { Device } from '@outpost/contract/devices';
import type { FsEntry } from '@outpost/contract/agent-protocol';
import type { FileTransfer } from '@outpost/contract/file-transfers';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { ConfirmDialog } from '../../../components/ui/dialog';
import { Input } from '../../../components/ui/form';
import { Spinner } from '../../../components/ui/spinner';
import { EmptyState } from '../../../components/ui/states';
import { useToast } from '../../../components/ui/toast';
import { errorMessage } from '../../../lib/api-client';
import { useCancelTransfer, useDeviceFiles, useStartDownload, uploadToDevice } from '../api/device-files';
import { crumbsOf, joinPath, parentPath, pathStyleOf, topPath } from '../lib/device-paths';
import { useFileTransfers } from '../lib/use-file-transfers';
import { FileTransfersList } from './file-transfers-list';
import { FilesTable } from './files-table';

// docs/product/remote-access.md#file-transfer — the device detail's Files tab: a folder of the
// device (breadcrumb and an editable path), Download on a file, Upload into the folder shown
// (asking before a file of that name is replaced), and the transfers of this visit.

function PathBar({
  path,
  style,
  onGo,
}: {
  path: string;
  style: ReturnType<typeof pathStyleOf>;
  onGo: (p: string) => void;
}) {
  // keyed by the path: a new folder starts a new draft
  const [draft, setDraft] = useState(path);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    onGo(draft.trim() || topPath(style));
  };
  return (
    <div className="space-y-2 px-4 pt-4">
      <nav aria-label="Folder path" className="flex flex-wrap items-center gap-0.5 text-sm">
        {crumbsOf(path, style).map((c, i, all) => (
          <span key={c.path} className="inline-flex items-center gap-0.5">
            {i > 0 && <ChevronRight className="size-3.5 text-slate-400" aria-hidden />}
            {i === all.length - 1 ? (
              <span className="px-1 font-medium text-slate-900 dark:text-white" aria-current="location">
                {c.label}
              </span>
            ) : (
              <button
                type="button"
                className="rounded px-1 text-indigo-600 hover:underline dark:text-indigo-400"
                onClick={() => onGo(c.path)}
              >
                {c.label}
              </button>
            )}
          </span>
        ))}
      </nav>
      <form onSubmit={submit} className="flex gap-2">
        <label htmlFor="files-path" className="sr-only">
          Path
        </label>
        <Input
          id="files-path"
          value={draft}
          onChange={(e) => setDraft(e.target.value)}
          placeholder={style === 'windows' ? 'C:\\Users' : '/home'}
          className="font-mono text-xs"
          spellCheck={false}
        />
        <Button type="submit" icon={<FolderOpen className="size-4" />}>
          Go
        </Button>
      </form>
    </div>
  );
}

function Toolbar(props: {
  canGoUp: boolean;
  onUp: () => void;
  onRefresh: () => void;
  isRefreshing: boolean;
  uploadBlocked: boolean;
  isUploading: boolean;
  onPick: (file: File | undefined) => void;
}) {
  const picker = useRef<HTMLInputElement>(null);
  return (
    <div className="flex flex-wrap items-center gap-2 px-4 py-3">
      <Button
        size="sm"
        icon={<ArrowUp className="size-3.5" />}
        onClick={props.onUp}
        disabled={!props.canGoUp}
      >
        Up
      </Button>
      <Button
        size="sm"
        icon={<RefreshCw className="size-3.5" />}
        onClick={props.onRefresh}
        isLoading={props.isRefreshing}
      >
        Refresh
      </Button>
      <div className="ml-auto">
        <input
          ref={picker}
          type="file"
          className="sr-only"
          tabIndex={-1}
          aria-hidden
          data-testid="files-upload-input"
          onChange={(e) => {
            props.onPick(e.target.files?.[0]);
            e.target.value = '';
          }}
        />
        <Button
          size="sm"
          variant="primary"
          icon={<Upload className="size-3.5" />}
          isLoading={props.isUploading}
          disabledReason={props.uploadBlocked ? 'Open a folder to upload into it' : undefined}
          onClick={() => picker.current?.click()}
        >
          Upload
        </Button>
      </div>
    </div>
  );
}

export function FilesTab({ device }: { device: Device }) {
  const style = pathStyleOf(device.os_type);
  const [path, setPath] = useState(topPath(style));
  const listing = useDeviceFiles(device.id, path);
  const startDownload = useStartDownload(device.id);
  const cancel = useCancelTransfer();
  const toast = useToast();
  const queryClient = useQueryClient();
  const [replacing, setReplacing] = useState<File | null>(null);
  const [uploading, setUploading] = useState(false);
  const [downloading, setDownloading] = useState<string | null>(null);
  const { transfers, track } = useFileTransfers((t: FileTransfer) => {
    if (t.status === 'completed') {
      toast.show({
        type: 'success',
        title: t.direction === 'download' ? 'Downloaded' : 'Uploaded',
        message: `${t.name} ${t.direction === 'download' ? 'was saved' : 'is on the device'}.`,
      });
      void queryClient.invalidateQueries({ queryKey: ['device-files', device.id] });
    } else if (t.status === 'failed') {
      toast.show({ type: 'error', title: `Could not ${t.direction} ${t.name}`, message: t.error ?? '' });
    }
  });
  const atDrives = style === 'windows' && path === '';
  const shown = listing.data?.path ?? path;
  const entries = listing.data?.entries ?? [];

  async function download(entry: FsEntry) {
    setDownloading(entry.name);
    try {
      track(await startDownload.mutateAsync(joinPath(shown, entry.name, style)));
    } catch (err) {
      toast.show({
        type: 'error',
        title: `Could not download ${entry.name}`,
        message: errorMessage(err, ''),
      });
    } finally {
      setDownloading(null);
    }
  }

  async function upload(file: File, overwrite: boolean) {
    setReplacing(null);
    setUploading(true);
    try {
      track(
        await uploadToDevice(device.id, {
          file,
          path: joinPath(shown, file.name, style),
          overwrite,
        }),
      );
    } catch (err) {
      toast.show({ type: 'error', title: `Could not upload ${file.name}`, message: errorMessage(err, '') });
    } finally {
      setUploading(false);
    }
  }

  function picked(file: File | undefined) {
    if (!file) {
      return;
    }
    if (entries.some((e) => e.name === file.name)) {
      setReplacing(file);
    } else {
      void upload(file, false);
    }
  }

  return (
    <Card>
      <PathBar key={shown} path={shown} style={style} onGo={setPath} />
      <Toolbar
        canGoUp={path !== topPath(style)}
        onUp={() => setPath(parentPath(shown, style))}
        onRefresh={() => void listing.refetch()}
        isRefreshing={listing.isFetching}
        uploadBlocked={atDrives}
        isUploading={uploading}
        onPick={picked}
      />
      {listing.isPending ? (
        <div className="flex items-center justify-center gap-2 py-14 text-sm text-slate-500">
          <Spinner className="size-4" /> Asking the device…
        </div>
      ) : listing.isError ? (
        <div className="px-4 pb-4">
          <Alert>{errorMessage(listing.error, 'The folder could not be listed')}</Alert>
        </div>
      ) : entries.length === 0 ? (
        <EmptyState icon={<FolderOpen className="size-6" />} title="This folder is empty" />
      ) : (
        <>
          <FilesTable
            entries={entries}
            atDrives={atDrives}
            onOpen={(e) => setPath(joinPath(shown, e.name, style))}
            onDownload={(e) => void download(e)}
            busyName={downloading}
          />
          {listing.data?.truncated && (
            <p className="px-4 py-2 text-xs text-slate-500 dark:text-slate-400">
              Only the first {entries.length} entries are shown.
            </p>
          )}
        </>
      )}
      <FileTransfersList
        transfers={transfers}
        onCancel={(t) =>
          void cancel
            .mutateAsync(t.id)
            .then(track, (err: unknown) =>
              toast.show({ type: 'error', title: 'Could not cancel', message: errorMessage(err, '') }),
            )
        }
      />
      <ConfirmDialog
        isOpen={replacing !== null}
        title="Replace the file?"
        message={`${replacing?.name ?? ''} already exists in this folder on the device. Replace it?`}
        confirmLabel="Replace"
        onConfirm={() => replacing && void upload(replacing, true)}
        onCancel={() => setReplacing(null)}
      />
    </Card>
  );
}
