// The local PostgreSQL server (127.0.0.1:5432) the tests use, started when it is not up (CI
// machines start with it stopped sometimes).
import { execSync } from 'node:child_process';

function isUp() {
  try {
    execSync('pg_isready -h 127.0.0.1 -p 5432', { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** Starts the local PostgreSQL when it is down; false when it could not be started. */
export function ensurePostgres() {
  if (isUp()) {
    return true;
  }
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
  return isUp();
}
