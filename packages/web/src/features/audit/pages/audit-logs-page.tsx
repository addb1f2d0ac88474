import { useEffect, useState } from 'react';
import { ScrollText } from 'lucide-react';
import { DEFAULT_PAGE_SIZE } from '@outpost/contract/limits';
import { adminMessages } from '@outpost/contract/messages';
import { AdminListFooter, PageSizeSelect } from '../../../components/ui/admin-filter-bar';
import { AdminOnlyState, isForbidden } from '../../../components/ui/admin-only-state';
import { Card, PageHeader } from '../../../components/ui/card';
import { ExportButton } from '../../../components/ui/export-button';
import { EmptyState, ErrorState, RetryingState } from '../../../components/ui/states';
import { useAuditActions, useAuditLogs, useAuditStats } from '../api/audit';
import type { AuditFilters } from '../api/audit';
import { useUsers } from '../../../lib/api/users';
import { useUser } from '../../../lib/auth';
import { errorMessage } from '../../../lib/api-client';
import { cn } from '../../../lib/cn';
import { AuditFilterPanel } from '../components/audit-filter-panel';
import { AuditPager } from '../components/audit-pager';
import { AuditSkeleton } from '../components/audit-skeleton';
import { AuditActivityPanels, AuditSummaryCards } from '../components/audit-stats';
import { AuditTable } from '../components/audit-table';
import { dateRangeError, emptyAuditFilters, emptyHint } from '../lib/audit-format';
import type { AuditFilterForm } from '../lib/audit-format';

const TITLE = adminMessages.auditTitle;
const DESCRIPTION = adminMessages.auditSubtitle;
const USER_FILTER_LIMIT = 100;

function toQuery(f: AuditFilterForm, page: number, limit: number): AuditFilters {
  return {
    page,
    limit,
    search: f.search.trim() || undefined,
    action: f.action || undefined,
    resource_type: f.resourceType || undefined,
    user_id: f.userId ? Number(f.userId) : undefined,
    start_date: f.startDate || undefined,
    end_date: f.endDate || undefined,
  };
}

// docs/product/activity.md#audit-log Audit logs audit list go-to box (load failures are logged and
// the screen stays usable: a failed list reads as a failure with Try Again, never as an empty log), docs/product/activity.md#limits.
export default function AuditLogsPage() {
  const me = useUser();
  if (me.role !== 'tenant_admin') {
    return (
      <>
        <PageHeader title={TITLE} description={DESCRIPTION} />
        <AdminOnlyState feature="The audit log" />
      </>
    );
  }
  return <AuditLogs />;
}

function AuditLogs() {
  // The form being edited, and what was last applied: filters apply on Apply Filters, or on a
  // page or page-size change (docs/product/activity.md).
  const [form, setForm] = useState<AuditFilterForm>(emptyAuditFilters);
  const [applied, setApplied] = useState<AuditFilterForm>(emptyAuditFilters);
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState(DEFAULT_PAGE_SIZE);

  const logs = useAuditLogs(toQuery(applied, page, pageSize));
  const stats = useAuditStats();
  const logActions = useAuditActions();
  const users = useUsers({ page: 1, limit: USER_FILTER_LIMIT });

  useEffect(() => {
    if (logs.isError && !isForbidden(logs.error)) {
      console.error(adminMessages.auditLogsLoad, logs.error);
    }
  }, [logs.isError, logs.error]);
  useEffect(() => {
    if (stats.isError && !isForbidden(stats.error)) {
      console.error(adminMessages.auditStatsLoad, stats.error);
    }
  }, [stats.isError, stats.error]);
  useEffect(() => {
    if (users.isError && !isForbidden(users.error)) {
      console.error(adminMessages.tenantUsersLoad, users.error);
    }
  }, [users.isError, users.error]);
  if (logs.isError && isForbidden(logs.error)) {
    return (
      <>
        <PageHeader title={TITLE} description={DESCRIPTION} />
        <AdminOnlyState feature="The audit log" />
      </>
    );
  }

  // Apply goes to page 1 and reloads (docs/product/activity.md#audit-log), even when nothing changed.
  const apply = () => {
    const isSame = page === 1 && JSON.stringify(form) === JSON.stringify(applied);
    setApplied(form);
    setPage(1);
    if (isSame) {
      void logs.refetch();
    }
  };
  const clear = () => {
    setForm(emptyAuditFilters);
    setApplied(emptyAuditFilters);
    setPage(1);
  };
  // A page change applies the form too (docs/product/activity.md), unless its dates are the wrong way round.
  const applyFormIfValid = () => {
    if (!dateRangeError(form)) {
      setApplied(form);
    }
  };
  const changePage = (p: number) => {
    applyFormIfValid();
    setPage(p);
  };
  const changePageSize = (size: number) => {
    applyFormIfValid();
    setPageSize(size);
    setPage(1);
  };

  const isInitialLoad = logs.isPending;
  const rows = logs.data?.data ?? [];
  const total = logs.data?.pagination.total ?? 0;
  const totalPages = logs.data?.pagination.totalPages ?? 0;
  const hasRows = !logs.isError && rows.length > 0;

  return (
    <>
      <PageHeader
        title={TITLE}
        description={DESCRIPTION}
        actions={
          // the applied filters, every entry they match (docs/product/device-sets.md#exports)
          <ExportButton
            path="/customer/audit"
            query={{ ...toQuery(applied, 1, pageSize), page: undefined, limit: undefined }}
            filename="audit-log.csv"
          />
        }
      />
      {isInitialLoad && logs.failureCount > 0 ? (
        <Card>
          <RetryingState failures={logs} />
        </Card>
      ) : isInitialLoad ? (
        <AuditSkeleton />
      ) : (
        <>
          {stats.data && <AuditSummaryCards stats={stats.data} />}
          <Card>
            <AuditFilterPanel
              value={form}
              onChange={setForm}
              users={users.data?.data ?? []}
              logActions={logActions.data}
              onApply={apply}
              onClear={clear}
            />
            <div className="flex items-center justify-between gap-3 border-b border-slate-200 px-4 py-2.5 dark:border-slate-800">
              <p className="text-sm font-medium text-slate-700 dark:text-slate-200">
                {/* a failed load has no count: not "0 entries" */}
                {logs.isError ? '' : `${total.toLocaleString()} ${total === 1 ? 'entry' : 'entries'}`}
              </p>
              <PageSizeSelect value={pageSize} onChange={changePageSize} />
            </div>
            <div
              aria-busy={logs.isFetching}
              className={cn('transition-opacity', logs.isPlaceholderData && 'opacity-60')}
            >
              {logs.isError ? (
                <ErrorState
                  title={adminMessages.auditLogsLoad}
                  message={errorMessage(logs.error, adminMessages.auditLogsLoad)}
                  onRetry={() => void logs.refetch()}
                />
              ) : rows.length === 0 ? (
                <EmptyState
                  icon={<ScrollText className="size-6" />}
                  title={adminMessages.auditEmpty}
                  message={emptyHint(applied)}
                />
              ) : (
                <AuditTable entries={rows} />
              )}
            </div>
            {hasRows && (
              <AdminListFooter
                page={page}
                pageSize={pageSize}
                shown={rows.length}
                total={total}
                pager={<AuditPager page={page} totalPages={totalPages} onPageChange={changePage} />}
              />
            )}
          </Card>
          {stats.data && <AuditActivityPanels stats={stats.data} />}
        </>
      )}
    </>
  );
}
