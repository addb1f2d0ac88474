import { useId, useState } from 'react';
import { ALERT_NOTE_MAX } from '@outpost/contract/alerts';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { Field, Textarea } from '../../../components/ui/form';

type NoteDialogProps = {
  isOpen: boolean;
  title: string;
  description?: string;
  confirmLabel: string;
  isBusy: boolean;
  error: string | null;
  onConfirm: (note: string) => void;
  onClose: () => void;
};

/** Acknowledge or resolve (one alert or many) with an optional note; the note starts empty each time. */
export function NoteDialog(props: NoteDialogProps) {
  return props.isOpen ? <NoteDialogBody {...props} /> : null;
}

function NoteDialogBody({
  isOpen,
  title,
  description,
  confirmLabel,
  isBusy,
  error,
  onConfirm,
  onClose,
}: NoteDialogProps) {
  const id = useId();
  const [note, setNote] = useState('');
  return (
    <Dialog
      isOpen={isOpen}
      onClose={onClose}
      isDismissDisabled={isBusy}
      title={title}
      description={description}
      size="sm"
      footer={
        <>
          <Button onClick={onClose} disabled={isBusy}>
            Cancel
          </Button>
          <Button variant="primary" isLoading={isBusy} onClick={() => onConfirm(note.trim())}>
            {confirmLabel}
          </Button>
        </>
      }
    >
      <Field label="Note" htmlFor={id} hint="Optional: what you did or why, kept with the alert.">
        <Textarea
          id={id}
          rows={3}
          maxLength={ALERT_NOTE_MAX}
          value={note}
          placeholder="e.g. Known issue, replacing the disk tonight"
          onChange={(e) => setNote(e.target.value)}
        />
      </Field>
      {error && (
        <p role="alert" className="mt-3 text-sm text-red-600 dark:text-red-400">
          {error}
        </p>
      )}
    </Dialog>
  );
}
