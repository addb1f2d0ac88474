import { AUDIT_ACTION_OPTIONS, AUDIT_RESOURCE_TYPES, auditActionKind } from '@outpost/contract/audit';
import type { AuditActionKind } from '@outpost/contract/audit';
import { adminMessages } from '@outpost/contract/messages';
import type { Tone } from '../../../components/ui/badge';

// docs/product/activity.md#audit-log Audit logs go-to-page box pager — the rules of the audit screen
// as plain functions, so they are tested without rendering.

export const AUDIT_ACTION_SELECT = [
  { value: '', label: 'All Actions' },
  ...AUDIT_ACTION_OPTIONS.map((a) => ({ value: a, label: a })),
];

/**
 * The actions the log holds beyond the original product description's nine (sign-in, deployments, packages, cleanup, …),
 * alphabetically, offered after them. A chosen action the list does not hold
 * (typed in a link, or its entries since scrolled away) stays offered so the select shows it.
 */
export function moreAuditActions(logActions: readonly string[], chosen: string): string[] {
  const spec = new Set<string>(AUDIT_ACTION_OPTIONS.map((a) => a.toLowerCase()));
  const more = new Map<string, string>();
  for (const a of chosen ? [...logActions, chosen] : logActions) {
    if (!spec.has(a.toLowerCase()) && !more.has(a.toLowerCase())) {
      more.set(a.toLowerCase(), a);
    }
  }
  return [...more.values()].sort((a, b) => a.localeCompare(b));
}

export const AUDIT_RESOURCE_TYPE_SELECT = [
  { value: '', label: 'All Types' },
  ...AUDIT_RESOURCE_TYPES.map((t) => ({ value: t, label: t })),
];

export type AuditFilterForm = {
  search: string;
  action: string;
  resourceType: string;
  userId: string;
  startDate: string;
  endDate: string;
};

export const emptyAuditFilters: AuditFilterForm = {
  search: '',
  action: '',
  resourceType: '',
  userId: '',
  startDate: '',
  endDate: '',
};

/** docs/product/activity.md#audit-log — the hint depends on search, action, type and user only (not the dates). */
export function emptyHint(f: AuditFilterForm): string {
  const isFiltered = [f.search.trim(), f.action, f.resourceType, f.userId].some((v) => v !== '');
  return isFiltered ? adminMessages.auditEmptyFiltered : adminMessages.auditEmptyUnfiltered;
}

/** docs/product/activity.md#audit-log — the badge's kind by the action's words (the contract's rule). */
export const actionKind = (action: string | null | undefined): AuditActionKind =>
  auditActionKind(action ?? '');

export const ACTION_TONES: Record<AuditActionKind, Tone> = {
  create: 'green',
  delete: 'red',
  update: 'blue',
  auth: 'purple',
  other: 'gray',
};

export const actionTone = (action: string | null | undefined): Tone => ACTION_TONES[actionKind(action)];

/** docs/product/activity.md#audit-log Timestamp cell — the age in seconds s, minutes m, hours h or days d, then 'ago'. */
export function shortAge(createdAt: Date, now = Date.now()): string {
  const seconds = Math.max(0, Math.floor((now - createdAt.getTime()) / 1000));
  if (seconds < 60) {
    return `${seconds}s ago`;
  }
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) {
    return `${minutes}m ago`;
  }
  const hours = Math.floor(minutes / 60);
  if (hours < 24) {
    return `${hours}h ago`;
  }
  return `${Math.floor(hours / 24)}d ago`;
}

/** docs/product/activity.md#limits — first and last page, two pages either side of the current, ellipses between. */
export function auditPages(current: number, totalPages: number): (number | 'gap')[] {
  if (totalPages <= 1) {
    return [];
  }
  const wanted = new Set([1, totalPages]);
  for (let p = current - 2; p <= current + 2; p++) {
    wanted.add(p);
  }
  const pages = [...wanted].filter((p) => p >= 1 && p <= totalPages).sort((a, b) => a - b);
  const out: (number | 'gap')[] = [];
  pages.forEach((p, i) => {
    const before = pages[i - 1];
    // An ellipsis would stand for a single page: show that page instead.
    if (before !== undefined && p - before === 2) {
      out.push(before + 1);
    } else if (before !== undefined && p - before > 2) {
      out.push('gap');
    }
    out.push(p);
  });
  return out;
}

/** docs/product/activity.md#audit-log — the go-to-page box appears above 5 pages. */
export const GO_TO_PAGE_MIN_PAGES = 6;
export const hasGoToPage = (totalPages: number) => totalPages >= GO_TO_PAGE_MIN_PAGES;

/** docs/product/activity.md — only whole numbers from 1 to the total pages; anything else is ignored (null). */
export function parseGoToPage(text: string, totalPages: number): number | null {
  const t = text.trim();
  if (!/^\d+$/.test(t)) {
    return null;
  }
  const n = Number(t);
  return n >= 1 && n <= totalPages ? n : null;
}

/** Old and new values are JSON text: shown pretty-printed when they parse, else as they are. */
export function prettyJson(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

/** A calendar day of the stats ('YYYY-MM-DD'), named in the viewer's locale without a zone shift. */
export function dayLabel(day: string): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(day);
  if (!m) {
    return day;
  }
  return new Date(Number(m[1]), Number(m[2]) - 1, Number(m[3])).toLocaleDateString(undefined, {
    weekday: 'short',
    month: 'short',
    day: 'numeric',
  });
}

/** The start date must not be after the end date (the server refuses it too). */
export function dateRangeError(f: Pick<AuditFilterForm, 'startDate' | 'endDate'>): string | null {
  return f.startDate && f.endDate && f.startDate > f.endDate ? adminMessages.dateRangeInverted : null;
}
