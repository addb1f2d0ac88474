import path from 'node:path';
import { parseArgs } from 'node:util';
import { z, ZodError } from 'zod';
import { ConfigError, loadConfig } from './config';
import { preparePrivateDirs } from './lib/private-dir';
import { DatabaseInUseError, openDatabase } from './db/client';
import { HttpError } from './lib/errors';
import { formatBytes } from '@outpost/contract/files';
import {
  addMember,
  createTenant,
  listTenantsWithCounts,
  setStorageQuota,
} from './modules/tenants/tenants.service';
import { createSignInLink } from './modules/auth/auth.service';

// The admin CLI: `npm run outpost -- <command> [options]` (docs/operations.md#administration-cli).

const USAGE = `Usage: npm run outpost -- <command> [options]

Commands:
  tenant:create --name NAME --admin-email EMAIL [--admin-name NAME] [--plan PLAN]
                [--max-agents N] [--license-expiry YYYY-MM-DD]
      Creates an organisation and its first administrator.
  user:add --tenant ID --email EMAIL [--name NAME] [--role user|tenant_admin]
      Invites a person into an organisation.
  tenant:list
      Lists the organisations with their user counts.
  sign-in-link --email EMAIL [--url BASE_URL]
      Prints a one-time sign-in link for an invited person (15 minutes), for an installation
      without an identity provider and without dev sign-in. BASE_URL defaults to http://localhost:PORT.
  tenant:quota --tenant ID --quota SIZE|default
      Sets an organisation's storage quota for uploaded files (e.g. 20GiB, 500MiB); "default"
      returns it to TENANT_STORAGE_QUOTA_BYTES (10 GiB unless set).

The database is the server's: DATABASE_URL, or the embedded one under DATA_DIR (default ./data).`;

const options = {
  name: { type: 'string' },
  plan: { type: 'string' },
  'max-agents': { type: 'string' },
  'license-expiry': { type: 'string' },
  'admin-email': { type: 'string' },
  'admin-name': { type: 'string' },
  tenant: { type: 'string' },
  email: { type: 'string' },
  role: { type: 'string' },
  url: { type: 'string' },
  quota: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

class UsageError extends Error {}

async function run(argv: string[]): Promise<string> {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options, allowPositionals: true, strict: true });
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  const { values, positionals } = parsed;
  const command = positionals[0];
  if (values.help || !command) {
    return USAGE;
  }
  if (!['tenant:create', 'user:add', 'tenant:list', 'tenant:quota', 'sign-in-link'].includes(command)) {
    throw new UsageError(`Unknown command "${command}".`);
  }
  const config = loadConfig();
  preparePrivateDirs(config);
  const database = await openDatabase({
    databaseUrl: config.databaseUrl,
    preparedStatements: config.preparedStatements,
    pgliteDir: path.join(config.dataDir, 'pglite'),
  });
  try {
    switch (command) {
      case 'tenant:create': {
        const { tenant, admin } = await createTenant(database.db, {
          name: values.name ?? '',
          plan: values.plan,
          maxAgents: values['max-agents'] ?? null,
          licenseExpiry: values['license-expiry'] ?? null,
          adminEmail: values['admin-email'] ?? '',
          adminName: values['admin-name'] ?? null,
        });
        return `Created tenant ${tenant.id} "${tenant.tenantName}" (plan ${tenant.plan}) with administrator ${admin.email}.`;
      }
      case 'user:add': {
        const user = await addMember(database.db, {
          tenantId: values.tenant ?? '',
          email: values.email ?? '',
          name: values.name ?? null,
          role: (values.role as 'user' | 'tenant_admin' | undefined) ?? 'user',
        });
        return `Added ${user.email} (${user.role}) to tenant ${user.tenantId}.`;
      }
      case 'sign-in-link': {
        const email = z.email('--email must be an e-mail address').parse(values.email ?? '');
        const secret = await createSignInLink(database.db, email);
        const base = (values.url ?? `http://localhost:${config.port}`).replace(/\/+$/, '');
        return `${base}/login#link=${secret}\n(works once, for 15 minutes, for ${email.toLowerCase()})`;
      }
      case 'tenant:quota': {
        const set = await setStorageQuota(database.db, {
          tenantId: values.tenant ?? '',
          quota: values.quota ?? '',
        });
        return set.quota === null
          ? `Tenant ${set.tenantId} now has the instance's default storage quota (${formatBytes(config.tenantStorageQuotaBytes)}).`
          : `Tenant ${set.tenantId} now has a storage quota of ${formatBytes(set.quota)}.`;
      }
      default: {
        const rows = await listTenantsWithCounts(database.db);
        if (rows.length === 0) {
          return 'No tenants yet. Create one with: npm run outpost -- tenant:create --name "Acme" --admin-email you@example.com';
        }
        const lines = rows.map(
          (t) =>
            `${String(t.id).padStart(4)}  ${t.tenantName.padEnd(28)} ${t.plan.padEnd(14)} max agents ${String(t.maxAgents ?? 'unlimited').padEnd(10)} users ${t.users}` +
            (t.licenseExpiry ? `  licence until ${t.licenseExpiry.toISOString().slice(0, 10)}` : ''),
        );
        return ['  id  name                         plan           limits', ...lines].join('\n');
      }
    }
  } finally {
    await database.close();
  }
}

function describe(err: unknown): string {
  if (err instanceof ZodError) {
    return err.issues.map((i) => i.message).join('\n');
  }
  if (err instanceof UsageError) {
    return `${err.message}\n\n${USAGE}`;
  }
  if (err instanceof ConfigError || err instanceof DatabaseInUseError || err instanceof HttpError) {
    return err.message;
  }
  const code = (err as { code?: string }).code;
  if (code === '23505') {
    return 'That record already exists.';
  }
  return err instanceof Error ? err.message : String(err);
}

run(process.argv.slice(2))
  .then((out) => {
    console.log(out);
  })
  .catch((err: unknown) => {
    console.error(`Error: ${describe(err)}`);
    process.exitCode = 1;
  });
