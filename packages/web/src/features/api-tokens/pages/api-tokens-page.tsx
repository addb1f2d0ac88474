import { useState } from 'react';
import { KeyRound, Plus } from 'lucide-react';
import { apiTokenMessages } from '@outpost/contract/api-tokens';
import type { ApiToken } from '@outpost/contract/api-tokens';
import { AdminOnlyState, isForbidden } from '../../../components/ui/admin-only-state';
import { Button } from '../../../components/ui/button';
import { Card, PageHeader } from '../../../components/ui/card';
import { DataTable } from '../../../components/ui/data-table';
import { ConfirmDialog } from '../../../components/ui/dialog';
import { QueryState } from '../../../components/ui/states';
import { useToast } from '../../../components/ui/toast';
import { errorMessage } from '../../../lib/api-client';
import { useSiteOptions } from '../../../lib/api/devices';
import { useUser } from '../../../lib/auth';
import { useApiTokens, useRevokeApiToken } from '../api/api-tokens';
import { CreateTokenDialog } from '../components/create-token-dialog';
import { tokenColumns } from '../components/token-columns';

// docs/product/administration.md#api-tokens: create (the secret shown once), list with last use
// and address, revoke with confirmation. Administrators only.

export default function ApiTokensPage() {
  const me = useUser();
  if (me.role !== 'tenant_admin') {
    return (
      <>
        <PageHeader title={apiTokenMessages.title} description={apiTokenMessages.intro} />
        <AdminOnlyState feature="API tokens" />
      </>
    );
  }
  return <ApiTokensAdmin />;
}

function ApiTokensAdmin() {
  const tokens = useApiTokens();
  const revoke = useRevokeApiToken();
  const toast = useToast();
  const siteNames = new Map((useSiteOptions().data ?? []).map((s) => [s.id, s.site_name]));
  const [isCreating, setIsCreating] = useState(false);
  const [revoking, setRevoking] = useState<ApiToken | null>(null);

  if (tokens.isError && isForbidden(tokens.error)) {
    return (
      <>
        <PageHeader title={apiTokenMessages.title} description={apiTokenMessages.intro} />
        <AdminOnlyState feature="API tokens" />
      </>
    );
  }

  const columns = tokenColumns(siteNames, setRevoking);

  async function confirmRevoke() {
    if (!revoking) {
      return;
    }
    try {
      await revoke.mutateAsync(revoking.id);
      toast.show({ type: 'success', title: apiTokenMessages.revoked, message: revoking.name });
    } catch (err) {
      toast.show({ type: 'error', title: 'Could not revoke the token', message: errorMessage(err, '') });
    }
    setRevoking(null);
  }

  return (
    <>
      <PageHeader
        title={apiTokenMessages.title}
        description={apiTokenMessages.intro}
        actions={
          <Button variant="primary" icon={<Plus className="size-4" />} onClick={() => setIsCreating(true)}>
            New token
          </Button>
        }
      />
      <Card>
        <QueryState
          isPending={tokens.isPending}
          failures={tokens}
          error={tokens.error ? errorMessage(tokens.error, apiTokenMessages.listLoad) : null}
          errorTitle={apiTokenMessages.listLoad}
          onRetry={() => void tokens.refetch()}
          isEmpty={(tokens.data ?? []).length === 0}
          empty={{
            icon: <KeyRound className="size-6" />,
            title: apiTokenMessages.empty,
            message: 'Create a token for a script or another system that calls Outpost.',
          }}
          loadingLabel="Loading API tokens"
        >
          <DataTable rows={tokens.data ?? []} columns={columns} cards />
        </QueryState>
      </Card>
      <CreateTokenDialog isOpen={isCreating} onClose={() => setIsCreating(false)} />
      <ConfirmDialog
        isOpen={revoking !== null}
        title="Revoke API token"
        message={revoking && apiTokenMessages.revokeConfirm(revoking.name)}
        confirmLabel="Revoke token"
        isBusy={revoke.isPending}
        onConfirm={() => void confirmRevoke()}
        onCancel={() => setRevoking(null)}
      />
    </>
  );
}
