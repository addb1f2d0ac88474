import { useId, useState } from 'react';
import { Filter, ListChecks } from 'lucide-react';
import type { GroupFilterInput, GroupKind } from '@outpost/contract/groups';
import { groupMessages } from '@outpost/contract/groups';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { Field, Input, Select, Textarea } from '../../../components/ui/form';
import { useToast } from '../../../components/ui/toast';
import { errorMessage } from '../../../lib/api-client';
import { useSiteOptions } from '../../../lib/api/devices';
import { useUser } from '../../../lib/auth';
import { cn } from '../../../lib/cn';
import { useFieldOptions, useTagOptions } from '../api/condition-options';
import { useSaveGroup } from '../api/groups';
import type { GroupDetail } from '../api/groups';
import { emptyFilter, filterProblem } from '../lib/conditions';
import { ConditionBuilder } from './condition-builder';
import { GroupPreview } from './group-preview';

const KINDS: { kind: GroupKind; title: string; text: string; icon: typeof Filter }[] = [
  { kind: 'dynamic', title: 'Dynamic', text: 'Devices that match conditions, kept up to date', icon: Filter },
  { kind: 'static', title: 'Static', text: 'Devices you add and remove yourself', icon: ListChecks },
];

/** The body of a create or update call. */
function groupBody(f: {
  isEdit: boolean;
  name: string;
  description: string;
  owner: number | null;
  kind: GroupKind;
  filter: GroupFilterInput;
}) {
  const common = { name: f.name.trim(), description: f.description.trim() || null, site_id: f.owner };
  const filter = f.kind === 'dynamic' ? { filter: f.filter } : {};
  return f.isEdit ? { ...common, ...filter } : { ...common, kind: f.kind, ...filter };
}

/** Dynamic or static, as two cards (only when creating: the kind does not change). */
function KindChoice({ kind, onChange }: { kind: GroupKind; onChange: (kind: GroupKind) => void }) {
  return (
    <div role="radiogroup" aria-label="Kind" className="grid gap-3 sm:grid-cols-2">
      {KINDS.map(({ kind: k, title, text, icon: Icon }) => (
        <button
          key={k}
          type="button"
          role="radio"
          aria-checked={kind === k}
          onClick={() => onChange(k)}
          className={cn(
            'flex items-start gap-3 rounded-lg p-3 text-left ring-1 ring-inset transition-colors',
            kind === k
              ? 'bg-indigo-50 ring-2 ring-indigo-600 dark:bg-indigo-500/10 dark:ring-indigo-400'
              : 'ring-slate-200 hover:bg-slate-50 dark:ring-slate-700 dark:hover:bg-slate-900',
          )}
        >
          <Icon className="mt-0.5 size-5 text-indigo-600 dark:text-indigo-400" aria-hidden />
          <span>
            <span className="block text-sm font-semibold text-slate-900 dark:text-white">{title}</span>
            <span className="block text-xs text-slate-500 dark:text-slate-400">{text}</span>
          </span>
        </button>
      ))}
    </div>
  );
}

/**
 * Create or edit a group (docs/product/device-sets.md#groups): name, description, owner (all
 * sites, for administrators of all sites, or one site), kind, and for a dynamic group the
 * conditions with the live preview. Mounted while open, keyed by the group.
 */
export function GroupDialog({
  group,
  onClose,
  onSaved,
}: {
  group: GroupDetail | null;
  onClose: () => void;
  onSaved?: (g: GroupDetail) => void;
}) {
  const toast = useToast();
  const user = useUser();
  const save = useSaveGroup();
  const sites = useSiteOptions();
  const tags = useTagOptions();
  const fields = useFieldOptions();
  const baseId = useId();
  const isTenantWideAllowed = user.role === 'tenant_admin' && user.site_access_type !== 'specific';
  const firstSite = sites.data?.[0]?.id ?? null;
  const [name, setName] = useState(group?.name ?? '');
  const [description, setDescription] = useState(group?.description ?? '');
  const [kind, setKind] = useState<GroupKind>(group?.kind ?? 'dynamic');
  const [siteId, setSiteId] = useState<number | null | undefined>(
    group ? group.site_id : isTenantWideAllowed ? null : undefined,
  );
  const [filter, setFilter] = useState<GroupFilterInput>(group?.filter ?? emptyFilter());
  const [error, setError] = useState<string | null>(null);
  const isEdit = group !== null;
  const owner = siteId === undefined ? firstSite : siteId;

  const submit = () => {
    if (!name.trim()) {
      setError(groupMessages.nameRequired);
      return;
    }
    const problem = kind === 'dynamic' ? filterProblem(filter) : null;
    if (problem) {
      setError(problem);
      return;
    }
    const body = groupBody({ isEdit, name, description, owner, kind, filter });
    save.mutate(
      { id: group?.id, body },
      {
        onSuccess: (saved) => {
          toast.show({
            type: 'success',
            title: isEdit ? 'Group updated' : 'Group created',
            message: `${saved.name} · ${saved.member_count.toLocaleString()} device${saved.member_count === 1 ? '' : 's'}`,
          });
          onClose();
          onSaved?.(saved);
        },
        onError: (err) => setError(errorMessage(err, 'Failed to save the group')),
      },
    );
  };

  const choices = {
    sites: (sites.data ?? []).map((s) => ({ value: String(s.id), label: s.site_name })),
    tags: (tags.data ?? []).map((t) => ({ value: String(t.id), label: t.name })),
    fields: (fields.data ?? []).map((f) => ({ value: f.key ?? String(f.id), label: f.name })),
  };

  return (
    <Dialog
      isOpen
      onClose={onClose}
      size="xl"
      title={isEdit ? 'Edit Group' : 'Create Group'}
      description="Act on a set of devices at once: deploy to it, export it, target policies at it."
      isDismissDisabled={save.isPending}
      footer={
        <>
          <Button onClick={onClose} disabled={save.isPending}>
            Cancel
          </Button>
          <Button variant="primary" isLoading={save.isPending} onClick={submit}>
            {isEdit ? 'Save Changes' : 'Create Group'}
          </Button>
        </>
      }
    >
      <div className="space-y-4">
        {error && <Alert>{error}</Alert>}
        <div className="grid gap-4 sm:grid-cols-2">
          <Field label="Name" htmlFor={`${baseId}-name`} required>
            <Input
              id={`${baseId}-name`}
              value={name}
              autoComplete="off"
              onChange={(e) => {
                setName(e.target.value);
                setError(null);
              }}
              placeholder="e.g. Outdated 7-Zip"
            />
          </Field>
          <Field
            label="Owner"
            htmlFor={`${baseId}-site`}
            hint={
              owner === null
                ? 'Every site’s devices can be members'
                : 'Only this site’s devices can be members'
            }
          >
            <Select
              id={`${baseId}-site`}
              value={owner === null ? '' : String(owner)}
              onChange={(e) => setSiteId(e.target.value ? Number(e.target.value) : null)}
            >
              {isTenantWideAllowed && <option value="">All sites</option>}
              {(sites.data ?? []).map((s) => (
                <option key={s.id} value={s.id}>
                  {s.site_name}
                </option>
              ))}
            </Select>
          </Field>
        </div>
        <Field label="Description" htmlFor={`${baseId}-description`}>
          <Textarea
            id={`${baseId}-description`}
            rows={2}
            value={description}
            onChange={(e) => setDescription(e.target.value)}
          />
        </Field>
        {!isEdit && <KindChoice kind={kind} onChange={setKind} />}
        {kind === 'dynamic' && (
          <div className="grid gap-4 lg:grid-cols-[minmax(0,1fr)_16rem]">
            <ConditionBuilder
              filter={filter}
              onChange={(f) => {
                setFilter(f);
                setError(null);
              }}
              choices={choices}
              isDisabled={save.isPending}
            />
            <GroupPreview filter={filter} siteId={owner} />
          </div>
        )}
      </div>
    </Dialog>
  );
}
