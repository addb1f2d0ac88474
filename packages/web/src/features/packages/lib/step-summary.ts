import { FileRef } from '@outpost/contract/step-catalog';
import type { StepType } from '@outpost/contract/step-catalog';
import { showFileName } from '@outpost/contract/files';

const text = (v: unknown) => (typeof v === 'string' ? v.trim() : '');
const fileName = (v: unknown) => showFileName(FileRef.safeParse(v).data?.originalFilename ?? '');
const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
const firstLine = (v: unknown) => text(v).split(/\r?\n/)[0] ?? '';

/** One line that tells steps of a package apart in the list (what runs, or what changes). */
export function stepSummary(type: StepType, d: Record<string, unknown>): string {
  switch (type) {
    case 'EXE':
    case 'MSI': {
      const source = d.source_type === 'url' ? text(d.url) : fileName(d.file);
      const args = text(type === 'EXE' ? d.arguments : d.properties);
      return [source, args].filter(Boolean).join('  ');
    }
    case 'CUSTOM_ZIP':
      return [fileName(d.zip_file), text(d.main_executable) && `→ ${text(d.main_executable)}`]
        .filter(Boolean)
        .join(' ');
    case 'REGISTRY': {
      const key = [text(d.hive), text(d.key_path)].filter(Boolean).join('\\');
      const value = text(d.value_name) || '(Default)';
      return `${key} · ${value}${text(d.value_data) ? ` = ${firstLine(d.value_data)}` : ''}`;
    }
    case 'FOLDER':
      return text(d.folder_path);
    case 'CMD':
      return firstLine(d.command);
    case 'POWERSHELL':
      return d.script_type === 'file' ? fileName(d.script_file) : firstLine(d.script_content);
    case 'REBOOT': {
      const deferrals = num(d.max_deferrals);
      return [
        `Restart after ${num(d.delay_seconds) ?? 60} s`,
        deferrals ? `up to ${deferrals} deferral${deferrals === 1 ? '' : 's'}` : '',
        firstLine(d.message) && `“${firstLine(d.message)}”`,
      ]
        .filter(Boolean)
        .join(' · ');
    }
    case 'MESSAGE':
      return [text(d.title), firstLine(d.message)].filter(Boolean).join(': ');
    case 'WAIT':
      return num(d.seconds) === undefined ? '' : `Wait ${num(d.seconds)!.toLocaleString('en-US')} s`;
  }
}
