import type { ScriptParamView, ScriptVersionDetail } from '@outpost/contract/scripts';

// The Versions panel's comparison (docs/product/scripts.md#versions): a line diff of two bodies
// (longest common subsequence over the lines between the common head and tail) and the fields
// and parameters that changed. Small and dependency-free (docs/decisions/2026-11-27-script-library.md).

export type DiffLine = {
  kind: 'same' | 'added' | 'removed';
  text: string;
  oldNo: number | null;
  newNo: number | null;
};

/** Above this many cells the middle is shown as removed then added rather than aligned. */
const MAX_CELLS = 4_000_000;

export function lineDiff(before: string, after: string): DiffLine[] {
  const a = before.split(/\r?\n/);
  const b = after.split(/\r?\n/);
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) {
    head++;
  }
  let tail = 0;
  while (
    tail < a.length - head &&
    tail < b.length - head &&
    a[a.length - 1 - tail] === b[b.length - 1 - tail]
  ) {
    tail++;
  }
  const midA = a.slice(head, a.length - tail);
  const midB = b.slice(head, b.length - tail);
  const out: DiffLine[] = [];
  for (let i = 0; i < head; i++) {
    out.push({ kind: 'same', text: a[i]!, oldNo: i + 1, newNo: i + 1 });
  }
  for (const line of middle(midA, midB)) {
    out.push({
      ...line,
      oldNo: line.oldNo === null ? null : line.oldNo + head,
      newNo: line.newNo === null ? null : line.newNo + head,
    });
  }
  for (let i = 0; i < tail; i++) {
    const ai = a.length - tail + i;
    const bi = b.length - tail + i;
    out.push({ kind: 'same', text: a[ai]!, oldNo: ai + 1, newNo: bi + 1 });
  }
  return out;
}

function middle(a: string[], b: string[]): DiffLine[] {
  const n = a.length;
  const m = b.length;
  if (n * m > MAX_CELLS) {
    return [
      ...a.map((text, i) => ({ kind: 'removed' as const, text, oldNo: i + 1, newNo: null })),
      ...b.map((text, j) => ({ kind: 'added' as const, text, oldNo: null, newNo: j + 1 })),
    ];
  }
  // lcs[i][j]: the common subsequence's length of a[i..] and b[j..], one flat array
  const lcs = new Uint32Array((n + 1) * (m + 1));
  const at = (i: number, j: number) => i * (m + 1) + j;
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      lcs[at(i, j)] =
        a[i] === b[j] ? lcs[at(i + 1, j + 1)]! + 1 : Math.max(lcs[at(i + 1, j)]!, lcs[at(i, j + 1)]!);
    }
  }
  const out: DiffLine[] = [];
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && a[i] === b[j]) {
      out.push({ kind: 'same', text: a[i]!, oldNo: i + 1, newNo: j + 1 });
      i++;
      j++;
    } else if (j < m && (i === n || lcs[at(i, j + 1)]! > lcs[at(i + 1, j)]!)) {
      out.push({ kind: 'added', text: b[j]!, oldNo: null, newNo: j + 1 });
      j++;
    } else {
      out.push({ kind: 'removed', text: a[i]!, oldNo: i + 1, newNo: null });
      i++;
    }
  }
  return out;
}

export type FieldChange = { field: string; before: string; after: string };

type ScalarField = 'name' | 'description' | 'category' | 'language' | 'os' | 'timeout_seconds';
const FIELDS: [ScalarField, string][] = [
  ['name', 'Name'],
  ['description', 'Description'],
  ['category', 'Category'],
  ['language', 'Language'],
  ['os', 'Target OS'],
  ['timeout_seconds', 'Timeout (seconds)'],
];

/** How a parameter reads in the comparison (a secret's value never appears, only whether one is set). */
export function describeParam(p: ScriptParamView): string {
  const parts: string[] = [p.type];
  if (p.required) {
    parts.push('required');
  }
  if (p.label) {
    parts.push(`label "${p.label}"`);
  }
  if (p.type === 'secret') {
    parts.push(p.has_default ? 'saved value' : 'no saved value');
  } else if (p.default !== null) {
    parts.push(`default "${p.default}"`);
  }
  if (p.options.length > 0) {
    parts.push(`options ${p.options.join(' | ')}`);
  }
  if (p.min !== null || p.max !== null) {
    parts.push(`range ${p.min ?? '…'}–${p.max ?? '…'}`);
  }
  if (p.pattern) {
    parts.push(`pattern ${p.pattern}`);
  }
  return parts.join(', ');
}

/** The fields and parameters that differ between two versions, in a stable order. */
export function fieldChanges(a: ScriptVersionDetail, b: ScriptVersionDetail): FieldChange[] {
  const changes: FieldChange[] = [];
  for (const [key, label] of FIELDS) {
    if (String(a[key]) !== String(b[key])) {
      changes.push({ field: label, before: String(a[key]), after: String(b[key]) });
    }
  }
  const names = [...new Set([...a.params.map((p) => p.name), ...b.params.map((p) => p.name)])];
  for (const name of names) {
    const pa = a.params.find((p) => p.name === name);
    const pb = b.params.find((p) => p.name === name);
    const before = pa ? describeParam(pa) : '(none)';
    const after = pb ? describeParam(pb) : '(none)';
    if (before !== after) {
      changes.push({ field: `Parameter ${name}`, before, after });
    }
  }
  const orderA = a.params.map((p) => p.name).filter((n) => b.params.some((p) => p.name === n));
  const orderB = b.params.map((p) => p.name).filter((n) => a.params.some((p) => p.name === n));
  if (orderA.join() !== orderB.join()) {
    changes.push({ field: 'Parameter order', before: orderA.join(', '), after: orderB.join(', ') });
  }
  return changes;
}
