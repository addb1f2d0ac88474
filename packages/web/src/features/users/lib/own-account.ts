import { adminMessages } from '@outpost/contract/messages';
import { useUsers } from '../../../lib/api/users';

// An administrator does not delete their own account from the Users list: the
// row's Delete and its selection box are disabled and say why. The last administrator is told
// the server's own rule; any other administrator is told that another administrator can do it.

export function useOwnDeleteReason(): string {
  // One row is enough: only the number of administrators is read.
  const admins = useUsers({ page: 1, limit: 1, role: 'tenant_admin' });
  const count = admins.data?.pagination.total;
  return count !== undefined && count <= 1 ? adminMessages.lastAdminDelete : adminMessages.ownDelete;
}
