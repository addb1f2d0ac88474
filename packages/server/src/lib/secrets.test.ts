import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config';
import { TOKEN_PREFIX, newAgentSecret, newEnrollmentToken } from '../modules/agents/agent-secrets';

// Every secret the server generates comes from node:crypto's CSPRNG with at least 128 bits
// (SECURITY.md "Generated secrets").
const serverSrc = path.resolve(import.meta.dirname, '..');

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) {
      return e.name === 'migrations' ? [] : sourceFiles(full);
    }
    return /\.ts$/.test(e.name) && !/\.test\.ts$/.test(e.name) ? [full] : [];
  });
}

describe('generated secrets', () => {
  it('enrolment tokens and agent secrets carry 256 random bits and never repeat', () => {
    const token = newEnrollmentToken();
    expect(token.startsWith(TOKEN_PREFIX)).toBe(true);
    expect(Buffer.from(token.slice(TOKEN_PREFIX.length), 'base64url')).toHaveLength(32);
    expect(Buffer.from(newAgentSecret(), 'base64url')).toHaveLength(32);
    const many = new Set(Array.from({ length: 1000 }, () => newAgentSecret()));
    expect(many.size).toBe(1000);
  });

  it('the generated session key has 384 bits and is kept 0600', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'outpost-key-'));
    try {
      expect(loadConfig({ DATA_DIR: dir }).sessionSecret).toHaveLength(48);
      expect(fs.statSync(path.join(dir, 'session.key')).mode & 0o777).toBe(0o600);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('no server code uses Math.random (not a CSPRNG)', () => {
    const offenders = sourceFiles(serverSrc).filter((f) =>
      fs.readFileSync(f, 'utf8').includes('Math.random'),
    );
    expect(offenders).toEqual([]);
  });
});
