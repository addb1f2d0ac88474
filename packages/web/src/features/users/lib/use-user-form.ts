import { useState } from 'react';
import { adminMessages } from '@outpost/contract/messages';
import { useToast } from '../../../components/ui/toast';
import { errorMessage } from '../../../lib/api-client';
import { useSaveUser } from '../api/save-user';
import type { TenantUser } from '../../../lib/api/users';
import { emptyUserForm, userFormToBody, userToForm, validateUserForm } from './user-form';
import type { UserForm } from './user-form';

/**
 * The Add User and Edit User dialog's values and its save: a change clears the last error; a
 * save checks the form first, then says what was saved and closes (docs/product/administration.md#users 'Failed to
 * create or update user', the server's text preferred).
 */
export function useUserForm(user: TenantUser | null, onSaved: () => void) {
  const toast = useToast();
  const save = useSaveUser();
  const [form, setForm] = useState<UserForm>(() => (user ? userToForm(user) : emptyUserForm));
  const [error, setError] = useState<string | null>(null);
  const isEdit = user !== null;

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
          onSaved();
        },
        onError: (err) => setError(errorMessage(err, adminMessages.userSaveFailed)),
      },
    );
  };

  return { form, set, error, submit, isSaving: save.isPending };
}
