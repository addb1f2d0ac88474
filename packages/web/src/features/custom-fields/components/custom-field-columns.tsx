import { ArrowDown, ArrowUp, Pencil, Trash2 } from 'lucide-react';
import type { CustomField } from '@outpost/contract/custom-fields';
import { Badge } from '../../../components/ui/badge';
import { Button, IconButton } from '../../../components/ui/button';
import type { Column } from '../../../components/ui/data-table';
import { FIELD_TYPE_LABELS, formatFieldValue } from '../../../lib/custom-field-values';

const none = <span className="text-slate-500 dark:text-slate-400">—</span>;

/** The custom fields list's columns (docs/product/device-sets.md#custom-fields); Move, Edit and Delete for administrators. */
export function customFieldColumns({
  isAdmin,
  count,
  onMove,
  onEdit,
  onDelete,
}: {
  isAdmin: boolean;
  count: number;
  onMove: (field: CustomField, by: -1 | 1) => void;
  onEdit: (field: CustomField) => void;
  onDelete: (field: CustomField) => void;
}): Column<CustomField & { index: number }>[] {
  return [
    {
      id: 'field',
      header: 'Field',
      sticky: true,
      cell: (f) => (
        <>
          <div className="font-medium whitespace-nowrap text-slate-900 dark:text-white">{f.name}</div>
          <div className="mt-0.5 font-mono text-xs text-slate-500 dark:text-slate-400">{f.key}</div>
        </>
      ),
    },
    {
      id: 'type',
      header: 'Type',
      label: 'Type',
      className: 'whitespace-nowrap',
      cell: (f) => <Badge tone="indigo">{FIELD_TYPE_LABELS[f.field_type]}</Badge>,
    },
    {
      id: 'options',
      header: 'Options',
      label: 'Options',
      title: (f) => (f.options.length > 0 ? f.options.join(', ') : undefined),
      cell: (f) =>
        f.options.length > 0 ? (
          <span className="block max-w-64 truncate text-slate-600 dark:text-slate-300">
            {f.options.join(', ')}
          </span>
        ) : (
          none
        ),
    },
    {
      id: 'default',
      header: 'Default',
      label: 'Default',
      cell: (f) => (f.default_value === null ? none : formatFieldValue(f.field_type, f.default_value)),
    },
    {
      id: 'required',
      header: 'Required',
      label: 'Required',
      cell: (f) =>
        f.required ? (
          <Badge tone="yellow">Required</Badge>
        ) : (
          <span className="text-slate-500 dark:text-slate-400">Optional</span>
        ),
    },
    {
      id: 'actions',
      header: <span className="sr-only">Actions</span>,
      headerClassName: 'text-right',
      className: 'text-right whitespace-nowrap',
      isHidden: !isAdmin,
      cell: (f) => (
        <>
          <IconButton
            label={`Move ${f.name} up`}
            className="size-8"
            disabled={f.index === 0}
            onClick={() => onMove(f, -1)}
          >
            <ArrowUp className="size-3.5" />
          </IconButton>
          <IconButton
            label={`Move ${f.name} down`}
            className="size-8"
            disabled={f.index === count - 1}
            onClick={() => onMove(f, 1)}
          >
            <ArrowDown className="size-3.5" />
          </IconButton>
          <Button
            size="sm"
            variant="ghost"
            aria-label={`Edit ${f.name}`}
            icon={<Pencil className="size-3.5" />}
            onClick={() => onEdit(f)}
          />
          <Button
            size="sm"
            variant="ghost"
            aria-label={`Delete ${f.name}`}
            className="text-red-600 hover:text-red-700 dark:text-red-400"
            icon={<Trash2 className="size-3.5" />}
            onClick={() => onDelete(f)}
          />
        </>
      ),
    },
  ];
}
