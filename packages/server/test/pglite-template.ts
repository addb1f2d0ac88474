import crypto from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import { migrationsFolder, pgliteExtensions } from '../src/db/client';

// A new PGlite cluster costs about two seconds (its initdb) before the migrations run; the
// integration run starts well over a hundred servers. The first server of a run migrates one
// cluster and keeps its dump in the temporary folder, named after the migrations and PGlite's
// version; every later server (in any test file) starts from that dump in about half a second.

let cached: Promise<Blob> | null = null;

function templateKey(): string {
  const hash = crypto.createHash('sha256');
  const entry = createRequire(import.meta.url).resolve('@electric-sql/pglite');
  const pglite = JSON.parse(
    fs.readFileSync(path.join(path.dirname(entry), '..', 'package.json'), 'utf8'),
  ) as {
    version: string;
  };
  hash.update(pglite.version);
  const walk = (dir: string) => {
    for (const name of fs.readdirSync(dir).sort()) {
      const full = path.join(dir, name);
      if (fs.statSync(full).isDirectory()) {
        walk(full);
      } else {
        hash.update(path.relative(migrationsFolder, full)).update(fs.readFileSync(full));
      }
    }
  };
  walk(migrationsFolder);
  return hash.digest('hex').slice(0, 16);
}

async function buildTemplate(file: string): Promise<Blob> {
  const client = new PGlite({ extensions: pgliteExtensions });
  await migrate(drizzle(client), { migrationsFolder });
  const dump = await client.dumpDataDir('none');
  await client.close();
  // written beside, then renamed: a parallel run never reads half a file
  const partial = `${file}.${process.pid}.partial`;
  fs.writeFileSync(partial, Buffer.from(await dump.arrayBuffer()));
  fs.renameSync(partial, file);
  return dump;
}

/** The migrated, empty database every in-memory test server starts from. */
export function pgliteTemplate(): Promise<Blob> {
  cached ??= (async () => {
    const file = path.join(os.tmpdir(), `outpost-pglite-template-${templateKey()}.tar`);
    if (fs.existsSync(file)) {
      return new Blob([fs.readFileSync(file)]);
    }
    return buildTemplate(file);
  })();
  return cached;
}
