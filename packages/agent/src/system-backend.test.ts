import { describe, expect, it } from 'vitest';
import { probesMode } from './system-backend';

describe('where the probes run', () => {
  it('in a worker process on Linux, in the agent elsewhere; OUTPOST_AGENT_PROBES decides when set', () => {
    expect(probesMode('linux', {})).toBe('worker');
    expect(probesMode('win32', {})).toBe('inline');
    expect(probesMode('darwin', {})).toBe('inline');
    expect(probesMode('linux', { OUTPOST_AGENT_PROBES: 'inline' })).toBe('inline');
    expect(probesMode('win32', { OUTPOST_AGENT_PROBES: 'worker' })).toBe('worker');
    expect(probesMode('linux', { OUTPOST_AGENT_PROBES: 'bogus' })).toBe('worker');
  });
});
