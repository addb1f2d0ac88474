import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { checkTableOwners, ownerOf, tablesWritten } from './check-table-owners.mjs';

// The table-ownership check of `npm run lint`: these cases prove it fires on a second writer, in
// the query builder and in SQL text, and lets reads, tests and one owner's many files pass.
const dirs: string[] = [];

const SCHEMA = {
  'db/schema/users.ts':
    "export const users = pgTable('users', {});\nexport const userSites = pgTable('user_sites', {});\n",
  'db/schema/tenants.ts': "export const tenants = pgTable('tenants', {});\n",
};

function check(files: Record<string, string>) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'owners-'));
  dirs.push(dir);
  for (const [name, text] of Object.entries({ ...SCHEMA, ...files })) {
    fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    fs.writeFileSync(path.join(dir, name), text);
  }
  return checkTableOwners(dir);
}

afterEach(() => {
  for (const dir of dirs.splice(0)) {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

describe('the table ownership check', () => {
  it('fires when two modules insert into and update the same table', () => {
    const lines = check({
      'modules/users/users.queries.ts': 'export const add = (tx) => tx.insert(users).values({});\n',
      'modules/tenants/tenants.queries.ts': 'export const name = (tx) => tx.update(users).set({});\n',
    });
    expect(lines).toEqual([
      'users is written by 2 owners: modules/tenants (modules/tenants/tenants.queries.ts); ' +
        'modules/users (modules/users/users.queries.ts)',
    ]);
  });

  it('fires on a write in SQL text and on one outside the modules', () => {
    const lines = check({
      'modules/tenants/tenants.queries.ts': 'export const q = sql`delete from ${tenants} where id = 1`;\n',
      'live/tenant-sweep.queries.ts': 'export const q = sql`UPDATE ${tenants} SET plan = 1`;\n',
    });
    expect(lines).toEqual([
      'tenants is written by 2 owners: live/tenant-sweep.queries.ts (live/tenant-sweep.queries.ts); ' +
        'modules/tenants (modules/tenants/tenants.queries.ts)',
    ]);
  });

  it('passes one owner with several files, reads by others, tests and names that are not tables', () => {
    const lines = check({
      'modules/users/users.queries.ts': 'tx.insert(users); tx.delete(userSites);\n',
      'modules/users/members.queries.ts': 'tx.update(users); sql`insert into ${userSites} values (1)`;\n',
      'modules/tenants/tenants.queries.ts':
        'db.select().from(users).where(eq(users.id, 1)); tx.insert(tenants);\n',
      'modules/tenants/tenants.int.test.ts': 'tx.update(users);\n',
      'modules/devices/search.ts': 'seen.delete(key); map.update(users2);\n',
    });
    expect(lines).toEqual([]);
  });

  it('finds the tables a source writes and names the owner by module', () => {
    const tables = new Set(['users', 'tenants']);
    expect([...tablesWritten('x.update( users ); y.insert(schema.tenants)', tables)]).toEqual([
      'users',
      'tenants',
    ]);
    expect(ownerOf('modules/auth/auth.queries.ts')).toBe('modules/auth');
    expect(ownerOf('lib/audit.ts')).toBe('lib/audit.ts');
  });
});
