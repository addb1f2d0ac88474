import { useId } from 'react';
import { Filter, X } from 'lucide-react';
import { adminMessages } from '@outpost/contract/messages';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Field, Input, Select } from '../../../components/ui/form';
import { SearchInput } from '../../../components/ui/list-toolbar';
import type { TenantUser } from '../../../lib/api/users';
import { UserFilterSelect } from './user-filter-select';
import {
  AUDIT_ACTION_SELECT,
  AUDIT_RESOURCE_TYPE_SELECT,
  dateRangeError,
  moreAuditActions,
} from '../lib/audit-format';
import type { AuditFilterForm } from '../lib/audit-format';

// docs/product/activity.md#audit-log filter panel — search, Action, Resource Type, User, Start and End Date;
// Clear Filters and Apply Filters. Nothing here loads: the page applies the form on Apply.
export function AuditFilterPanel({
  value,
  onChange,
  users,
  logActions = [],
  onApply,
  onClear,
}: {
  value: AuditFilterForm;
  onChange: (value: AuditFilterForm) => void;
  users: TenantUser[];
  /** every distinct action of the log; those beyond the original product description's nine are offered after them */
  logActions?: readonly string[];
  onApply: () => void;
  onClear: () => void;
}) {
  const baseId = useId();
  const id = (name: string) => `${baseId}-${name}`;
  const set = (key: keyof AuditFilterForm, v: string) => onChange({ ...value, [key]: v });
  const dateError = dateRangeError(value);
  const moreActions = moreAuditActions(logActions, value.action);
  return (
    <form
      className="space-y-4 border-b border-slate-200 p-4 dark:border-slate-800"
      aria-label="Audit log filters"
      onSubmit={(e) => {
        e.preventDefault();
        if (!dateError) {
          onApply();
        }
      }}
    >
      <div className="flex flex-col gap-3 sm:flex-row sm:items-center">
        <div className="flex-1 sm:[&>div]:max-w-md">
          <SearchInput
            value={value.search}
            onChange={(v) => set('search', v)}
            placeholder={adminMessages.auditSearchPlaceholder}
            label="Search logs"
          />
        </div>
        <div className="flex flex-wrap gap-2">
          <Button onClick={onClear} icon={<X className="size-4" />}>
            Clear Filters
          </Button>
          <Button type="submit" variant="primary" icon={<Filter className="size-4" />}>
            Apply Filters
          </Button>
        </div>
      </div>
      <div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-5">
        <Field label="Action" htmlFor={id('action')}>
          <Select id={id('action')} value={value.action} onChange={(e) => set('action', e.target.value)}>
            {AUDIT_ACTION_SELECT.map((o) => (
              <option key={o.value} value={o.value}>
                {o.label}
              </option>
            ))}
            {moreActions.length > 0 && (
              <optgroup label="More actions in the log">
                {moreActions.map((a) => (
                  <option key={a} value={a}>
                    {a}
                  </option>
                ))}
              </optgroup>
            )}
          </Select>
        </Field>
        <Field label="Resource Type" htmlFor={id('type')}>
          <Select
            id={id('type')}
            value={value.resourceType}
            onChange={(e) => set('resourceType', e.target.value)}
          >
            {AUDIT_RESOURCE_TYPE_SELECT.map((o) => (
              <option key={o.value} value={o.value}>
                {o.label}
              </option>
            ))}
          </Select>
        </Field>
        <Field label="User" htmlFor={id('user')}>
          <UserFilterSelect
            id={id('user')}
            users={users}
            value={value.userId}
            onChange={(v) => set('userId', v)}
          />
        </Field>
        <Field label="Start Date" htmlFor={id('start')}>
          <Input
            id={id('start')}
            type="date"
            value={value.startDate}
            max={value.endDate || undefined}
            onChange={(e) => set('startDate', e.target.value)}
          />
        </Field>
        <Field label="End Date" htmlFor={id('end')}>
          <Input
            id={id('end')}
            type="date"
            value={value.endDate}
            min={value.startDate || undefined}
            onChange={(e) => set('endDate', e.target.value)}
          />
        </Field>
      </div>
      {dateError && <Alert>{dateError}</Alert>}
    </form>
  );
}
