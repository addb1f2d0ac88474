#!/usr/bin/env node
// Runs a command with TEST_DATABASE_URL pointing at the local PostgreSQL server, starting the
// server first when it is not up.
import { spawnSync } from 'node:child_process';
import { ensurePostgres } from './postgres.mjs';

const base = process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';

if (!ensurePostgres()) {
  console.error('PostgreSQL is required for this suite and could not be started.');
  process.exit(1);
}

const [cmd, ...args] = process.argv.slice(2);
const result = spawnSync(cmd, args, {
  stdio: 'inherit',
  env: { ...process.env, TEST_DATABASE_URL: base },
  shell: false,
});
process.exit(result.status ?? 1);
