import { useId, useState } from 'react';
import type { SiteOption } from '@outpost/contract/devices';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { Field, Input, Select } from '../../../components/ui/form';
import { useToast } from '../../../components/ui/toast';
import { errorMessage } from '../../../lib/api-client';
import { useSaveUser } from '../api/save-user';
import type { TenantUser } from '../../../lib/api/users';
import { cn } from '../../../lib/cn';
import { adminMessages } from '@outpost/contract/messages';
import { emptyUserForm, userFormToBody, userToForm, validateUserForm } from '../lib/user-form';
import type { UserForm } from '../lib/user-form';
import { SiteMultiSelect } from './site-multi-select';

// spec: operations §2.6 Add User and Edit User dialogs, §5 User, §8 'Failed to create or update
// user' (the server's text preferred).
// Mounted while open (keyed by the user), so each opening starts from the user's values.
export function UserDialog({
  user,
  sites,
  isLoadingSites,
  onClose,
}: {
  /** the user to edit; null adds one */
  user: TenantUser | null;
  sites: SiteOption[];
  isLoadingSites: boolean;
  onClose: () => void;
}) {
  const toast = useToast();
  const save = useSaveUser();
  const [form, setForm] = useState<UserForm>(() => (user ? userToForm(user) : emptyUserForm));
  const [error, setError] = useState<string | null>(null);
  const ids = { email: useId(), name: useId(), role: useId() };
  const isEdit = user !== null;
  // Once the person has signed in, the membership belongs to their identity (SECURITY.md R2-1).
  const isEmailFixed = user?.status === 'active';

  const set = <K extends keyof UserForm>(key: K, value: UserForm[K]) => {
    setForm((f) => ({ ...f, [key]: value }));
    setError(null);
  };

  const submit = () => {
    const problem = validateUserForm(form);
    if (problem) {
      setError(problem);
      return;
    }
    save.mutate(
      { id: user?.id, body: userFormToBody(form) },
      {
        onSuccess: (saved) => {
          toast.show({
            type: 'success',
            title: isEdit ? 'User updated' : 'User added',
            message: isEdit
              ? `${saved.name || saved.email} was updated`
              : `${saved.email} can now sign in to your organization`,
          });
          onClose();
        },
        onError: (err) => setError(errorMessage(err, adminMessages.userSaveFailed)),
      },
    );
  };

  return (
    <Dialog
      isOpen
      onClose={onClose}
      title={isEdit ? 'Edit User' : 'Add User'}
      description={
        isEdit
          ? 'Change the name, role and the sites this person can see.'
          : 'The person signs in with their Google account (or the development sign-in) using this email.'
      }
      isDismissDisabled={save.isPending}
      footer={
        <>
          <Button onClick={onClose} disabled={save.isPending}>
            Cancel
          </Button>
          <Button variant="primary" type="submit" form="user-form" isLoading={save.isPending}>
            {isEdit ? 'Save Changes' : 'Add User'}
          </Button>
        </>
      }
    >
      <form
        id="user-form"
        noValidate
        className="space-y-4"
        onSubmit={(e) => {
          e.preventDefault();
          submit();
        }}
      >
        {error && <Alert>{error}</Alert>}
        <Field
          label="Email"
          htmlFor={ids.email}
          required
          hint={
            isEmailFixed
              ? 'Fixed since this person signed in. To give access to another address, remove this user and invite that address.'
              : undefined
          }
        >
          <Input
            id={ids.email}
            type="email"
            autoComplete="off"
            placeholder="name@company.com"
            value={form.email}
            readOnly={isEmailFixed}
            aria-readonly={isEmailFixed || undefined}
            className={
              isEmailFixed ? 'bg-slate-50 text-slate-600 dark:bg-slate-800/60 dark:text-slate-300' : undefined
            }
            onChange={(e) => set('email', e.target.value)}
          />
        </Field>
        <Field label="Name" htmlFor={ids.name}>
          <Input
            id={ids.name}
            autoComplete="off"
            placeholder="Full name"
            value={form.name}
            onChange={(e) => set('name', e.target.value)}
          />
        </Field>
        <Field
          label="Role"
          htmlFor={ids.role}
          hint={
            form.role === 'tenant_admin'
              ? 'Admins manage users, sites, agents and the audit log.'
              : 'Users work with devices, packages and deployments in their sites.'
          }
        >
          <Select
            id={ids.role}
            value={form.role}
            onChange={(e) => set('role', e.target.value as UserForm['role'])}
          >
            <option value="user">User</option>
            <option value="tenant_admin">Admin</option>
          </Select>
        </Field>
        <fieldset className="space-y-2">
          <legend className="text-sm font-medium text-slate-700 dark:text-slate-200">Site Access</legend>
          <div className="grid grid-cols-2 gap-2">
            {(
              [
                ['all', 'All Sites', 'Every site, now and later'],
                ['specific', 'Specific Sites', 'Only the sites chosen below'],
              ] as const
            ).map(([value, label, hint]) => (
              <label
                key={value}
                className={cn(
                  'flex cursor-pointer items-start gap-2.5 rounded-lg p-3 ring-1 transition-colors',
                  form.siteAccessType === value
                    ? 'bg-indigo-50/60 ring-indigo-500 dark:bg-indigo-500/10 dark:ring-indigo-400'
                    : 'ring-slate-200 hover:bg-slate-50 dark:ring-slate-700 dark:hover:bg-slate-800/60',
                )}
              >
                <input
                  type="radio"
                  name="site-access"
                  value={value}
                  checked={form.siteAccessType === value}
                  onChange={() => set('siteAccessType', value)}
                  className="mt-0.5 accent-indigo-600"
                />
                <span>
                  <span className="block text-sm font-medium text-slate-900 dark:text-white">{label}</span>
                  <span className="block text-xs text-slate-500 dark:text-slate-400">{hint}</span>
                </span>
              </label>
            ))}
          </div>
          {form.siteAccessType === 'specific' && (
            <SiteMultiSelect
              sites={sites}
              isLoading={isLoadingSites}
              selected={form.siteIds}
              onChange={(siteIds) => set('siteIds', siteIds)}
            />
          )}
        </fieldset>
      </form>
    </Dialog>
  );
}
