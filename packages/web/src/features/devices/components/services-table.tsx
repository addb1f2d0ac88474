import type { ReactNode } from 'react';
import { Play, RotateCw, Square } from 'lucide-react';
import type { Service, ServiceAction } from '@outpost/contract/devices';
import { Badge } from '../../../components/ui/badge';
import type { Tone } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { TBody, THead, Table, Td, Th, Tr } from '../../../components/ui/table';

const statusTone = (status: string): Tone =>
  status === 'Running' ? 'green' : status === 'Stopped' ? 'gray' : status === 'Paused' ? 'yellow' : 'blue';

/**
 * The services table (docs/product/devices.md#services): Start only when Stopped; Stop and Restart only
 * when Running; every button waits while an action runs or while the device is offline.
 */
export function ServicesTable({
  services,
  busy,
  isOffline,
  onRun,
}: {
  services: Service[];
  /** the action under way, as `serviceName:action` */
  busy: string | null;
  isOffline: boolean;
  onRun: (serviceName: string, action: ServiceAction) => void;
}) {
  const actionButton = (serviceName: string, action: ServiceAction, label: string, icon: ReactNode) => (
    <Button
      size="sm"
      variant="ghost"
      icon={icon}
      isLoading={busy === `${serviceName}:${action}`}
      disabled={busy !== null || isOffline}
      aria-label={`${label} ${serviceName}`}
      onClick={() => onRun(serviceName, action)}
    >
      {label}
    </Button>
  );

  return (
    <Table>
      <THead>
        <tr>
          <Th>Service</Th>
          <Th>Status</Th>
          <Th>Start Type</Th>
          <Th className="text-right">Actions</Th>
        </tr>
      </THead>
      <TBody>
        {services.map((s) => (
          <Tr key={s.serviceName} data-service={s.serviceName}>
            <Td>
              <div className="font-medium text-slate-900 dark:text-white">
                {s.displayName || s.serviceName}
              </div>
              {s.displayName && s.displayName !== s.serviceName && (
                <div className="text-xs text-slate-500 dark:text-slate-400">{s.serviceName}</div>
              )}
            </Td>
            <Td>
              <Badge tone={statusTone(s.status)} dot>
                {s.status}
              </Badge>
            </Td>
            <Td>{s.startType || '—'}</Td>
            <Td className="text-right">
              <div className="flex justify-end gap-1">
                {s.status === 'Stopped' &&
                  actionButton(s.serviceName, 'start', 'Start', <Play className="size-3.5" />)}
                {s.status === 'Running' && (
                  <>
                    {actionButton(s.serviceName, 'stop', 'Stop', <Square className="size-3.5" />)}
                    {actionButton(s.serviceName, 'restart', 'Restart', <RotateCw className="size-3.5" />)}
                  </>
                )}
              </div>
            </Td>
          </Tr>
        ))}
      </TBody>
    </Table>
  );
}
