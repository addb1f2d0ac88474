// Old and New Values of an audit entry are JSON text. They are shown as a list of fields a person
// reads ("Site name: London Office"), not as raw JSON; text that is not a JSON
// object is shown as it is.

export type AuditField = { key: string; label: string; value: string };

const ACRONYMS: Record<string, string> = {
  id: 'ID',
  ids: 'IDs',
  ip: 'IP',
  os: 'OS',
  url: 'URL',
  mac: 'MAC',
  sha256: 'SHA-256',
  guid: 'GUID',
  cpu: 'CPU',
};

/** `site_name` → "Site name", `osType` → "OS type", `ip_address` → "IP address". */
export function fieldLabel(key: string): string {
  const words = key
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .split(/[\s_-]+/)
    .filter(Boolean)
    .map((w) => ACRONYMS[w.toLowerCase()] ?? w.toLowerCase());
  const text = words.join(' ');
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** A value as text: empty for null, Yes/No, lists joined by commas, anything nested as JSON. */
export function fieldValue(value: unknown): string {
  if (value === null || value === undefined || value === '') {
    return '(empty)';
  }
  if (typeof value === 'boolean') {
    return value ? 'Yes' : 'No';
  }
  if (typeof value === 'string' || typeof value === 'number') {
    return String(value);
  }
  if (Array.isArray(value) && value.every((v) => typeof v === 'string' || typeof v === 'number')) {
    return value.length === 0 ? '(none)' : value.join(', ');
  }
  return JSON.stringify(value);
}

/** The fields of a JSON object, in its order; null when the text is not a JSON object. */
export function auditFields(text: string): AuditField[] | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return null;
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    return null;
  }
  return Object.entries(parsed as Record<string, unknown>).map(([key, v]) => ({
    key,
    label: fieldLabel(key),
    value: fieldValue(v),
  }));
}

/**
 * The keys whose value differs between the old and the new values (both shown, both marked).
 * A creation or a deletion has one side only: nothing is marked then.
 */
export function changedKeys(oldText: string | null, newText: string | null): Set<string> {
  if (!oldText || !newText) {
    return new Set();
  }
  const before = new Map((auditFields(oldText) ?? []).map((f) => [f.key, f.value]));
  const after = new Map((auditFields(newText) ?? []).map((f) => [f.key, f.value]));
  const keys = new Set([...before.keys(), ...after.keys()]);
  return new Set([...keys].filter((k) => before.get(k) !== after.get(k)));
}
