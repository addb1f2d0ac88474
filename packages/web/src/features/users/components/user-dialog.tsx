import { useId } from 'react';
import type { SiteOption } from '@outpost/contract/devices';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { Field, Input, Select } from '../../../components/ui/form';
import type { TenantUser } from '../../../lib/api/users';
import type { UserForm } from '../lib/user-form';
import { useUserForm } from '../lib/use-user-form';
import { SiteAccessField } from './site-access-field';

// docs/product/administration.md#users Add User and Edit User dialogs 'Failed to create or update
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
  const { form, set, error, submit, isSaving } = useUserForm(user, onClose);
  const ids = { email: useId(), name: useId(), role: useId() };
  const isEdit = user !== null;
  // Once the person has signed in, the membership belongs to their identity (SECURITY.md R2-1).
  const isEmailFixed = user?.status === 'active';

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
      isDismissDisabled={isSaving}
      footer={
        <>
          <Button onClick={onClose} disabled={isSaving}>
            Cancel
          </Button>
          <Button variant="primary" type="submit" form="user-form" isLoading={isSaving}>
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
        <SiteAccessField
          accessType={form.siteAccessType}
          siteIds={form.siteIds}
          sites={sites}
          isLoadingSites={isLoadingSites}
          onAccessTypeChange={(value) => set('siteAccessType', value)}
          onSiteIdsChange={(siteIds) => set('siteIds', siteIds)}
        />
      </form>
    </Dialog>
  );
}
