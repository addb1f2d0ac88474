// The database's work over a benchmark's window, read from PostgreSQL's own statistics (no
// extension needed): rows inserted, updated (and of them HOT, no index touched) and deleted per
// table, transactions committed, and the CPU seconds of the backends connected to the database
// (/proc, same machine). Backends report their counts at most once a second and an idle one
// within ten, so `after` is read after a pause (DB_STATS_SETTLE_MS).
import fs from 'node:fs';
import type pg from 'pg';

/** how long after the window the counts are read: PostgreSQL 15 flushes an idle backend's within 10 s */
export const DB_STATS_SETTLE_MS = 11_000;

type TableCounts = { ins: number; upd: number; hot: number; del: number };
export type DbSnapshot = { tables: Record<string, TableCounts>; commits: number; cpu: Map<number, number> };

function procCpu(pid: number): number | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return null;
  }
}

export async function dbSnapshot(db: pg.Client): Promise<DbSnapshot> {
  await db.query('select pg_stat_clear_snapshot()');
  const t = await db.query<{ relname: string; ins: string; upd: string; hot: string; del: string }>(
    `select relname, n_tup_ins as ins, n_tup_upd as upd, n_tup_hot_upd as hot, n_tup_del as del
       from pg_stat_user_tables`,
  );
  const d = await db.query<{ commits: string }>(
    'select xact_commit as commits from pg_stat_database where datname = current_database()',
  );
  const pids = await db.query<{ pid: number }>(
    'select pid from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()',
  );
  const cpu = new Map<number, number>();
  for (const { pid } of pids.rows) {
    const s = procCpu(pid);
    if (s !== null) {
      cpu.set(pid, s);
    }
  }
  const tables: Record<string, TableCounts> = {};
  for (const r of t.rows) {
    tables[r.relname] = { ins: Number(r.ins), upd: Number(r.upd), hot: Number(r.hot), del: Number(r.del) };
  }
  return { tables, commits: Number(d.rows[0]!.commits), cpu };
}

/**
 * What the database did between two snapshots, per `per` units of work (e.g. results): the
 * tables written, the commits, and the CPU seconds of the backends alive at both ends.
 */
export function dbWork(before: DbSnapshot, after: DbSnapshot, per: number) {
  const r = (x: number) => Number((x / Math.max(1, per)).toFixed(3));
  const tables: Record<string, TableCounts> = {};
  for (const [name, a] of Object.entries(after.tables)) {
    const b = before.tables[name] ?? { ins: 0, upd: 0, hot: 0, del: 0 };
    const diff = { ins: a.ins - b.ins, upd: a.upd - b.upd, hot: a.hot - b.hot, del: a.del - b.del };
    if (diff.ins + diff.upd + diff.del > 0) {
      tables[name] = { ins: r(diff.ins), upd: r(diff.upd), hot: r(diff.hot), del: r(diff.del) };
    }
  }
  let cpu = 0;
  for (const [pid, s] of after.cpu) {
    cpu += s - (before.cpu.get(pid) ?? 0);
  }
  return {
    per,
    rows_per_unit: tables,
    commits_per_unit: r(after.commits - before.commits),
    postgres_cpu_s: Number(cpu.toFixed(2)),
  };
}
