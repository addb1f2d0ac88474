import type { CleanupDevice, DuplicateSet, DuplicateSetMember } from '@outpost/contract/device-cleanup';
import { cleanupMessages } from '@outpost/contract/messages';
import { Alert } from '../../../components/ui/alert';
import { Badge } from '../../../components/ui/badge';
import type { Tone } from '../../../components/ui/badge';
import { formatDateTime } from '../../../lib/format';

// What a cleanup will do, shown before the administrator confirms it (SECURITY.md R2-4): the
// agents offline too long, and each set of duplicate registrations with the record kept, the
// records removed and the ones left for review, each with its reason.

const outcomeBadge: Record<DuplicateSetMember['outcome'], { tone: Tone; label: string }> = {
  keep: { tone: 'green', label: 'Keep' },
  remove: { tone: 'red', label: 'Remove' },
  review: { tone: 'yellow', label: 'Review' },
};

const nameOf = (d: { hostname: string | null; id: number }) => d.hostname ?? `Device ${d.id}`;

function MemberRow({ member }: { member: DuplicateSetMember }) {
  const badge = outcomeBadge[member.outcome];
  return (
    <li className="space-y-0.5 px-3 py-2 text-sm" data-testid={`cleanup-member-${member.id}`}>
      <div className="flex items-center justify-between gap-3">
        <span title={nameOf(member)} className="truncate font-medium text-slate-800 dark:text-slate-200">
          {nameOf(member)} <span className="text-xs font-normal text-slate-500">#{member.id}</span>
        </span>
        <Badge tone={badge.tone}>{badge.label}</Badge>
      </div>
      <p className="text-xs text-slate-600 dark:text-slate-400">{cleanupMessages.reason[member.reason]}</p>
      <p className="text-xs text-slate-500 dark:text-slate-500">
        Enrolled {formatDateTime(member.created_at)} · last connected{' '}
        {member.last_seen ? formatDateTime(member.last_seen) : 'never'} · {member.status}
      </p>
    </li>
  );
}

function SetView({ set }: { set: DuplicateSet }) {
  return (
    <section
      aria-label={`Duplicates of ${nameOf(set.members.find((m) => m.id === set.kept_device_id) ?? set.members[0]!)}`}
      className="rounded-lg ring-1 ring-slate-200 dark:ring-slate-800"
    >
      <ul className="divide-y divide-slate-100 dark:divide-slate-800">
        {set.members.map((m) => (
          <MemberRow key={m.id} member={m} />
        ))}
      </ul>
    </section>
  );
}

export function CleanupPlanView({ devices, sets }: { devices: CleanupDevice[]; sets: DuplicateSet[] }) {
  const stale = devices.filter((d) => d.reason === 'stale');
  const review = sets.filter((s) => s.needs_review).length;
  return (
    <div className="max-h-96 space-y-4 overflow-y-auto">
      {review > 0 && <Alert tone="warning">{cleanupMessages.needsReview(review)}</Alert>}
      {stale.length > 0 && (
        <section aria-label="Offline too long" className="space-y-2">
          <h3 className="text-sm font-medium text-slate-900 dark:text-white">
            Offline too long ({stale.length})
          </h3>
          <ul className="divide-y divide-slate-100 rounded-lg ring-1 ring-slate-200 dark:divide-slate-800 dark:ring-slate-800">
            {stale.map((d) => (
              <li key={d.id} className="flex items-center justify-between gap-3 px-3 py-2 text-sm">
                <span title={nameOf(d)} className="truncate text-slate-800 dark:text-slate-200">
                  {nameOf(d)}
                </span>
                <Badge tone="red">Remove</Badge>
              </li>
            ))}
          </ul>
        </section>
      )}
      {sets.length > 0 && (
        <div className="space-y-2">
          <h3 className="text-sm font-medium text-slate-900 dark:text-white">
            Duplicate registrations ({sets.length})
          </h3>
          {sets.map((s) => (
            <SetView key={s.kept_device_id} set={s} />
          ))}
        </div>
      )}
      {stale.length === 0 && sets.length === 0 && (
        <p className="text-sm text-slate-600 dark:text-slate-400">Nothing to remove: no agent matched.</p>
      )}
    </div>
  );
}
