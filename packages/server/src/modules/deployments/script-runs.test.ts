import { describe, expect, it } from 'vitest';
import { createSecretBox } from '../../lib/secret-box';
import { job } from '../../../test/support/engine';
import { runScriptOf } from './job-command';
import { createScriptSecrets, shownOutput } from './script-runs.service';
import { STEP_LOG_HEAD_CHARS } from './step-log-rules';

// Script runs' server rules (docs/product/scripts.md#runs): secrets masked in a run's output with
// the library's key, never in the agent's command; the cut output shows its marker.

const SECRET_KEY = new TextEncoder().encode('unit-tests-session-secret-0123456789');
const spec = (sealed: Record<string, string>) => ({
  script_id: 3,
  script_name: 'Rotate key',
  version: 4,
  language: 'bash' as const,
  body: 'echo "$OUTPOST_KEY"',
  params: { user: 'ada' },
  sealed_secrets: sealed,
  timeout_seconds: 60,
  offline: 'wait' as const,
});

describe('script runs on the server', () => {
  const box = createSecretBox(SECRET_KEY, 'scripts');

  it('masks a run’s secret values in its output, and nothing in other jobs', () => {
    const secrets = createScriptSecrets(SECRET_KEY);
    const run = job({ id: 5, kind: 'script', scriptRun: spec({ key: box.seal('hunter2') }) });
    expect(secrets.maskOutput(run, 'key=hunter2\n')).toBe('key=••••\n');
    expect(secrets.open(run)).toEqual({ key: 'hunter2' });
    expect(secrets.maskOutput(job({ id: 6 }), 'key=hunter2')).toBe('key=hunter2');
  });

  it('does not open a value sealed with another key or purpose', () => {
    const other = createSecretBox(SECRET_KEY, 'notification channel secrets');
    const run = job({ id: 7, kind: 'script', scriptRun: spec({ key: other.seal('x') }) });
    expect(createScriptSecrets(SECRET_KEY).open(run)).toEqual({});
  });

  it('gives the agent the body, the values and only the names of the secrets', () => {
    const command = runScriptOf(
      job({ id: 9, kind: 'script', scriptRun: spec({ key: box.seal('hunter2') }) }),
      44,
    );
    expect(command).toEqual({
      kind: 'run_script',
      jobId: 9,
      deviceDeploymentId: 44,
      name: 'Rotate key (v4)',
      language: 'bash',
      body: 'echo "$OUTPOST_KEY"',
      params: { user: 'ada' },
      secretNames: ['key'],
      timeoutSeconds: 60,
    });
    expect(JSON.stringify(command)).not.toContain('v1.');
  });

  it('shows where a long output’s middle was left out', () => {
    const head = 'h'.repeat(STEP_LOG_HEAD_CHARS);
    expect(shownOutput(`${head}tail\n`, 1234)).toBe(`${head}\n… 1,234 bytes left out …\ntail\n`);
    expect(shownOutput('short\n', 0)).toBe('short\n');
  });
});
