import { useState } from 'react';
import { Link } from 'react-router';
import { ChevronDown, ChevronRight, ShieldCheck } from 'lucide-react';
import type { DeviceCheck } from '@outpost/contract/checks';
import { metricMessages } from '@outpost/contract/metrics';
import { Badge } from '../../../../components/ui/badge';
import type { Tone } from '../../../../components/ui/badge';
import { Card, CardHeader } from '../../../../components/ui/card';
import { QueryState } from '../../../../components/ui/states';
import { TBody, THead, Table, Td, Th, Tr } from '../../../../components/ui/table';
import { errorMessage } from '../../../../lib/api-client';
import { formatDateTime, relativeTime } from '../../../../lib/format';
import { useDeviceChecks } from '../../api/get-device-checks';
import { checkStateLabel } from '../../lib/metric-series';

// The device's checks (docs/product/monitoring.md#the-monitoring-tab): what each watches, its
// state, the agent's last output (expandable), when it was checked and since when it is in this
// state, and the policy it comes from.

const stateTone: Record<ReturnType<typeof checkStateLabel>, Tone> = {
  Passing: 'green',
  Warning: 'yellow',
  Failing: 'red',
  Pending: 'gray',
};

function OutputCell({ output }: { output: string | null }) {
  const [isOpen, setOpen] = useState(false);
  if (!output) {
    return <span className="text-slate-400 dark:text-slate-500">—</span>;
  }
  const isLong = output.length > 60 || output.includes('\n');
  if (!isLong) {
    return <code className="font-mono text-xs text-slate-700 dark:text-slate-300">{output}</code>;
  }
  return (
    <div className="max-w-md text-left">
      <button
        type="button"
        onClick={() => setOpen(!isOpen)}
        aria-expanded={isOpen}
        className="flex max-w-full items-start gap-1 text-left font-mono text-xs text-slate-700 hover:text-indigo-600 dark:text-slate-300 dark:hover:text-indigo-400"
      >
        {isOpen ? (
          <ChevronDown className="mt-px size-3.5 shrink-0" />
        ) : (
          <ChevronRight className="mt-px size-3.5 shrink-0" />
        )}
        <span className={isOpen ? 'sr-only' : 'truncate'}>{output.split('\n')[0]}</span>
        {isOpen && <span className="font-sans text-slate-500 dark:text-slate-400">Hide output</span>}
      </button>
      {isOpen && (
        <pre className="mt-1.5 max-h-64 text-left overflow-auto rounded-md bg-slate-50 p-2 font-mono text-xs whitespace-pre-wrap text-slate-800 ring-1 ring-slate-200 ring-inset dark:bg-slate-950 dark:text-slate-200 dark:ring-slate-800">
          {output}
        </pre>
      )}
    </div>
  );
}

function CheckRow({ check }: { check: DeviceCheck }) {
  const state = checkStateLabel(check.state);
  return (
    <Tr>
      <Td data-label="Check">
        <div className="font-medium text-slate-900 dark:text-white">{check.name}</div>
        <div className="text-xs text-slate-500 dark:text-slate-400">{check.summary}</div>
      </Td>
      <Td data-label="State">
        <Badge tone={stateTone[state]} dot>
          {state}
        </Badge>
      </Td>
      <Td data-label="Last output">
        <OutputCell output={check.output} />
      </Td>
      <Td data-label="Checked" className="whitespace-nowrap">
        <span title={formatDateTime(check.checked_at)}>
          {check.checked_at ? relativeTime(check.checked_at) : 'Not yet'}
        </span>
      </Td>
      <Td data-label="Since" className="whitespace-nowrap">
        <span title={formatDateTime(check.since)}>{check.since ? relativeTime(check.since) : '—'}</span>
      </Td>
      <Td data-label="Policy">{check.policy_name}</Td>
    </Tr>
  );
}

export function ChecksCard({ deviceGuid }: { deviceGuid: string }) {
  const query = useDeviceChecks(deviceGuid);
  const checks = query.data?.data ?? [];
  return (
    <Card>
      <CardHeader
        title="Checks"
        description="What the device's monitoring policies check on it, as the agent last reported."
      />
      <QueryState
        isPending={query.isPending}
        failures={query}
        error={query.isError ? errorMessage(query.error, metricMessages.checksLoad) : null}
        errorTitle={metricMessages.checksLoad}
        onRetry={() => void query.refetch()}
        isEmpty={checks.length === 0}
        loadingLabel="Loading checks"
        empty={{
          icon: <ShieldCheck className="size-6" />,
          title: 'No checks run on this device',
          message: (
            <>
              Monitoring policies decide what is checked where.{' '}
              <Link
                to="/policies"
                className="font-medium text-indigo-600 hover:underline dark:text-indigo-400"
              >
                Go to Policies
              </Link>
            </>
          ),
        }}
      >
        <Table cards>
          <THead>
            <tr>
              <Th>Check</Th>
              <Th>State</Th>
              <Th>Last output</Th>
              <Th>Checked</Th>
              <Th>Since</Th>
              <Th>Policy</Th>
            </tr>
          </THead>
          <TBody>
            {checks.map((c) => (
              <CheckRow key={`${c.policy_id}-${c.check_id}`} check={c} />
            ))}
          </TBody>
        </Table>
      </QueryState>
    </Card>
  );
}
