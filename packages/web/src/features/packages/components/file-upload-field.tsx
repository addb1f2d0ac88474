import { useId, useRef, useState } from 'react';
import { FileCheck2, Upload, X } from 'lucide-react';
import { formatBytes, showFileName } from '@outpost/contract/files';
import { packageMessages as messages } from '@outpost/contract/messages';
import type { FileRef } from '@outpost/contract/step-catalog';
import { Button } from '../../../components/ui/button';
import { errorMessage } from '../../../lib/api-client';
import { cn } from '../../../lib/cn';
import { useInvalidateStorageUsage } from '../api/get-storage-usage';
import { uploadFile } from '../api/upload-file';
import { StorageUsageLabel } from './storage-usage';
import type { UploadProgress } from '../api/upload-file';

// docs/product/packages.md#step-types — a file field uploads the file as soon as it is chosen; the result holds
// an id and originalFilename. docs/product/packages.md#saving — on failure 'Failed to upload file: {reason}' and the field is
// cleared.

type Props = {
  label: string;
  value: FileRef | null;
  onChange: (value: FileRef | null) => void;
  onUploadingChange: (isUploading: boolean) => void;
  accept?: string;
  isInvalid?: boolean;
  describedBy?: string;
};

export function FileUploadField({
  label,
  value,
  onChange,
  onUploadingChange,
  accept,
  isInvalid,
  describedBy,
}: Props) {
  const inputId = useId();
  const inputRef = useRef<HTMLInputElement>(null);
  const [progress, setProgress] = useState<UploadProgress | null>(null);
  const [error, setError] = useState<string | null>(null);
  const invalidateUsage = useInvalidateStorageUsage();

  async function onChoose(file: File | undefined) {
    if (!file) {
      return;
    }
    setError(null);
    setProgress({ loaded: 0, total: file.size });
    onUploadingChange(true);
    try {
      const uploaded = await uploadFile(file, { onProgress: setProgress });
      onChange({ id: uploaded.id, originalFilename: uploaded.originalFilename });
    } catch (err) {
      setError(messages.fileUploadFailed(errorMessage(err, 'Unknown error')));
      onChange(null);
    } finally {
      setProgress(null);
      onUploadingChange(false);
      void invalidateUsage();
      if (inputRef.current) {
        inputRef.current.value = '';
      }
    }
  }

  const percent = progress && progress.total > 0 ? Math.round((progress.loaded / progress.total) * 100) : 0;

  return (
    <div className="space-y-2">
      {value && !progress ? (
        <div className="flex items-center gap-3 rounded-lg border border-emerald-200 bg-emerald-50/60 px-3 py-2 dark:border-emerald-500/30 dark:bg-emerald-500/5">
          <FileCheck2 className="size-4 shrink-0 text-emerald-600 dark:text-emerald-400" aria-hidden />
          <span
            className="min-w-0 flex-1 truncate text-sm font-medium text-slate-800 dark:text-slate-100"
            data-testid="uploaded-file-name"
          >
            {showFileName(value.originalFilename)}
          </span>
          <Button size="sm" variant="ghost" onClick={() => inputRef.current?.click()}>
            Replace
          </Button>
          <button
            type="button"
            aria-label={`Remove ${showFileName(value.originalFilename)}`}
            onClick={() => onChange(null)}
            className="rounded p-1 text-slate-400 hover:bg-slate-200/60 hover:text-slate-600 dark:hover:bg-slate-700"
          >
            <X className="size-4" />
          </button>
        </div>
      ) : (
        <label
          htmlFor={inputId}
          className={cn(
            'flex cursor-pointer items-center gap-3 rounded-lg border border-dashed px-3 py-3 text-sm transition-colors',
            'border-slate-300 text-slate-600 hover:border-indigo-400 hover:bg-indigo-50/40',
            'dark:border-slate-700 dark:text-slate-300 dark:hover:border-indigo-500 dark:hover:bg-indigo-500/5',
            isInvalid && 'border-red-400 dark:border-red-500/60',
            progress && 'pointer-events-none',
          )}
        >
          <Upload className="size-4 shrink-0 text-slate-400" aria-hidden />
          {progress ? (
            <span className="flex-1">
              <span className="flex justify-between text-xs text-slate-500 dark:text-slate-400">
                <span>
                  Uploading… {formatBytes(progress.loaded)} of {formatBytes(progress.total)}
                </span>
                <span>{percent}%</span>
              </span>
              <span
                className="mt-1.5 block h-1.5 overflow-hidden rounded-full bg-slate-200 dark:bg-slate-700"
                role="progressbar"
                aria-label={`Uploading ${label}`}
                aria-valuenow={percent}
                aria-valuemin={0}
                aria-valuemax={100}
              >
                <span
                  className="block h-full rounded-full bg-indigo-600 transition-[width]"
                  style={{ width: `${percent}%` }}
                />
              </span>
            </span>
          ) : (
            <span className="flex-1">
              <span className="font-medium text-indigo-600 dark:text-indigo-400">Choose a file</span>
              {accept && <span className="text-slate-500 dark:text-slate-400"> ({accept})</span>}
              <span className="block text-xs text-slate-500 dark:text-slate-400">
                It uploads as soon as you choose it.
              </span>
            </span>
          )}
        </label>
      )}
      <input
        ref={inputRef}
        id={inputId}
        type="file"
        aria-label={label}
        aria-describedby={describedBy}
        accept={accept}
        className="sr-only"
        onChange={(e) => void onChoose(e.target.files?.[0])}
      />
      <StorageUsageLabel />
      {error && (
        <p role="alert" className="text-xs text-red-600 dark:text-red-400">
          {error}
        </p>
      )}
    </div>
  );
}
