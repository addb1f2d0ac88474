import type { ScriptRunDevice } from '@outpost/contract/script-runs';
import { StatusBadge } from '../../../components/ui/badge';
import { TBody, THead, Table, Td, Th, Tr } from '../../../components/ui/table';
import { cn } from '../../../lib/cn';

// docs/product/scripts.md#results — the run's devices; choosing one shows its output.

const seconds = (ms: number | null) => (ms === null ? '—' : `${(ms / 1000).toFixed(1)} s`);

export function RunDeviceTable({
  rows,
  chosen,
  onChoose,
}: {
  rows: readonly ScriptRunDevice[];
  chosen: number | null;
  onChoose: (id: number) => void;
}) {
  return (
    <div className="overflow-x-auto">
      <Table>
        <THead>
          <Tr>
            <Th>Device</Th>
            <Th>Status</Th>
            <Th>Exit code</Th>
            <Th>Duration</Th>
          </Tr>
        </THead>
        <TBody>
          {rows.map((r) => (
            <Tr
              key={r.id}
              data-testid="run-device-row"
              data-status={r.status}
              className={cn(r.id === chosen && 'bg-indigo-50 dark:bg-indigo-950/40')}
            >
              <Td>
                <button
                  type="button"
                  aria-pressed={r.id === chosen}
                  onClick={() => onChoose(r.id)}
                  className="text-left font-medium whitespace-nowrap text-slate-900 hover:text-indigo-600 dark:text-white dark:hover:text-indigo-400"
                >
                  {r.hostname ?? 'Removed device'}
                </button>
              </Td>
              <Td>
                <StatusBadge status={r.status} />
              </Td>
              <Td className="font-mono">{r.exit_code ?? '—'}</Td>
              <Td className="whitespace-nowrap">{seconds(r.duration_ms)}</Td>
            </Tr>
          ))}
        </TBody>
      </Table>
    </div>
  );
}
