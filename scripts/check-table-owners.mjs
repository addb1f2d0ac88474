#!/usr/bin/env node
// One owner per table: every table of the server's schema is written (insert, update, delete, in
// the query builder or in SQL text) by the queries of one module only, so a rule about a table's
// rows lives in one place (docs/architecture.md, "Limits the lint enforces"). Other modules reach
// it through the owner's service. Tests may write anything to set up a state.
// Prints one line per table with more than one writer and exits 1; run by `npm run lint`.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

// Test helpers live in packages/server/test/, outside the folder checked; tests beside the code are skipped.
const TEST_FILE = /\.test\.tsx?$/;

/**
 * The names of the tables a schema folder declares (`export const name = pgTable(`).
 * @param {string[]} texts the schema files' texts
 */
export function tableNames(texts) {
  const names = new Set();
  for (const text of texts) {
    for (const match of text.matchAll(/export const (\w+)\s*=\s*pgTable\(/g)) {
      names.add(match[1]);
    }
  }
  return names;
}

/**
 * The tables a source writes: `.insert(t)`, `.update(t)`, `.delete(t)` and SQL text
 * `insert into ${t}`, `update ${t}`, `delete from ${t}`, for the given table names.
 * @param {string} text
 * @param {Set<string>} tables
 */
export function tablesWritten(text, tables) {
  const written = new Set();
  const patterns = [
    /\.(?:insert|update|delete)\(\s*(?:schema\.)?([A-Za-z_$][\w$]*)\s*\)/g,
    /\b(?:insert\s+into|update|delete\s+from)\s+\$\{\s*(?:schema\.)?([A-Za-z_$][\w$]*)\s*\}/gi,
  ];
  for (const pattern of patterns) {
    for (const match of text.matchAll(pattern)) {
      if (tables.has(match[1])) {
        written.add(match[1]);
      }
    }
  }
  return written;
}

/**
 * Who owns a source file: its module (`modules/<name>`) or, outside the modules, the file itself.
 * @param {string} relative a path relative to the server's src folder, with forward slashes
 */
export function ownerOf(relative) {
  const parts = relative.split('/');
  return parts[0] === 'modules' && parts.length > 2 ? `modules/${parts[1]}` : relative;
}

/**
 * Every table written by more than one owner, with its writers (owner → files).
 * @param {{ file: string, text: string }[]} sources paths relative to src, forward slashes
 * @param {Set<string>} tables
 * @returns {{ table: string, owners: Map<string, string[]> }[]}
 */
export function sharedTables(sources, tables) {
  /** @type {Map<string, Map<string, string[]>>} */
  const writers = new Map();
  for (const { file, text } of sources) {
    if (TEST_FILE.test(file) || file.startsWith('db/')) {
      continue;
    }
    for (const table of tablesWritten(text, tables)) {
      const owners = writers.get(table) ?? new Map();
      const owner = ownerOf(file);
      owners.set(owner, [...(owners.get(owner) ?? []), file]);
      writers.set(table, owners);
    }
  }
  return [...writers]
    .filter(([, owners]) => owners.size > 1)
    .map(([table, owners]) => ({ table, owners }))
    .sort((a, b) => a.table.localeCompare(b.table));
}

/** @param {string} dir */
function walk(dir) {
  /** @type {string[]} */
  const files = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      files.push(...walk(full));
    } else if (/\.ts$/.test(entry.name)) {
      files.push(full);
    }
  }
  return files;
}

/**
 * Checks a server source folder (with db/schema inside); returns the report lines.
 * @param {string} src
 */
export function checkTableOwners(src) {
  const schema = path.join(src, 'db', 'schema');
  const tables = tableNames(walk(schema).map((file) => fs.readFileSync(file, 'utf8')));
  const sources = walk(src).map((file) => ({
    file: path.relative(src, file).split(path.sep).join('/'),
    text: fs.readFileSync(file, 'utf8'),
  }));
  return sharedTables(sources, tables).map(
    ({ table, owners }) =>
      `${table} is written by ${owners.size} owners: ` +
      [...owners].map(([owner, files]) => `${owner} (${files.join(', ')})`).join('; '),
  );
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const src = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../packages/server/src');
  const lines = checkTableOwners(src);
  for (const line of lines) {
    console.error(line);
  }
  if (lines.length > 0) {
    console.error(
      `\n${lines.length} table(s) with more than one writer: move the writes to the owner's queries.`,
    );
    process.exit(1);
  }
  console.log('One writer per table: every table is written by one module.');
}
