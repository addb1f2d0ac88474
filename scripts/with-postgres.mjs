#!/usr/bin/env node
// Runs a command with TEST_DATABASE_URL pointing at the local PostgreSQL server, starting the
// server first when it is not up (CI machines start with it stopped sometimes).
import { execSync, spawnSync } from 'node:child_process';

const base = process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';

function isUp() {
  try {
    execSync('pg_isready -h 127.0.0.1 -p 5432', { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

if (!isUp()) {
  console.log('PostgreSQL is not up; starting it');
  try {
    const versions = execSync('ls /etc/postgresql').toString().trim().split(/\s+/);
    execSync(`pg_ctlcluster --skip-systemctl-redirect ${versions[0]} main start`, { stdio: 'inherit' });
  } catch (err) {
    console.error('Could not start PostgreSQL:', err instanceof Error ? err.message : err);
  }
  for (let i = 0; i < 30 && !isUp(); i++) {
    execSync('sleep 1');
  }
  if (!isUp()) {
    console.error('PostgreSQL is required for this suite and could not be started.');
    process.exit(1);
  }
}

const [cmd, ...args] = process.argv.slice(2);
const result = spawnSync(cmd, args, {
  stdio: 'inherit',
  env: { ...process.env, TEST_DATABASE_URL: base },
  shell: false,
});
process.exit(result.status ?? 1);
