import type { ReactNode } from 'react';
import type { ListData } from '@outpost/contract/envelope';
import { errorMessage } from '../../lib/api-client';
import { AdminListFooter } from './admin-filter-bar';
import { DataTable } from './data-table';
import type { DataTableProps } from './data-table';
import { ListFooter } from './list-toolbar';
import { Pager } from './pager';
import { QueryState } from './states';

// Below a list's toolbar: loading, failure and empty states, the table, and the footer with its
// pager (docs/product/devices.md#lists; docs/product/administration.md#admin-lists and docs/product/activity.md#audit-log for the admin lists' footer).

/** What a list needs of its query (a TanStack query result fits). */
export type ListQuery<T> = {
  data: ListData<T> | undefined;
  isPending: boolean;
  isError: boolean;
  error: unknown;
  failureCount: number;
  failureReason: unknown;
  refetch: () => Promise<unknown>;
};

/** What a list needs of its paging state (useListState fits). */
export type ListPaging = {
  page: number;
  pageSize: number;
  setPage: (page: number) => void;
  setPageSize: (size: number) => void;
};

export type DataListProps<T extends { id: number }> = Omit<DataTableProps<T>, 'rows'> & {
  query: ListQuery<T>;
  paging: ListPaging;
  /** `list`: 'Showing n of N' with the page size and pager; `admin`: 'Showing a to b of N results' */
  footer: 'list' | 'admin';
  /** the failure's message when the server gave none, and the error box's title */
  errorFallback: string;
  errorTitle: string;
  loadingLabel: string;
  empty: { icon?: ReactNode; title: string; message?: ReactNode; action?: ReactNode };
};

export function DataList<T extends { id: number }>({
  query,
  paging,
  footer,
  errorFallback,
  errorTitle,
  loadingLabel,
  empty,
  ...table
}: DataListProps<T>) {
  const rows = query.data?.data;
  const pagination = query.data?.pagination;
  return (
    <>
      <QueryState
        isPending={query.isPending}
        failures={query}
        error={query.isError ? errorMessage(query.error, errorFallback) : null}
        errorTitle={errorTitle}
        onRetry={() => void query.refetch()}
        isEmpty={rows?.length === 0}
        loadingLabel={loadingLabel}
        empty={empty}
      >
        <DataTable rows={rows ?? []} {...table} />
      </QueryState>
      {rows && rows.length > 0 && pagination && (
        <DataListFooter kind={footer} paging={paging} shown={rows.length} pagination={pagination} />
      )}
    </>
  );
}

function DataListFooter({
  kind,
  paging,
  shown,
  pagination,
}: {
  kind: 'list' | 'admin';
  paging: ListPaging;
  shown: number;
  pagination: ListData<unknown>['pagination'];
}) {
  if (kind === 'admin') {
    return (
      <AdminListFooter
        page={paging.page}
        pageSize={paging.pageSize}
        shown={shown}
        total={pagination.total}
        pager={<Pager page={paging.page} totalPages={pagination.totalPages} onPageChange={paging.setPage} />}
      />
    );
  }
  return (
    <ListFooter
      shown={shown}
      total={pagination.total}
      page={paging.page}
      totalPages={pagination.totalPages}
      pageSize={paging.pageSize}
      onPageChange={paging.setPage}
      onPageSizeChange={paging.setPageSize}
    />
  );
}
