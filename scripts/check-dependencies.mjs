#!/usr/bin/env node
// Checks docs/dependencies.md against the workspaces' package.json files, read at run time:
// every direct production dependency has a row (with its licence as installed), and no row names
// a package that is no longer one. Our own workspace packages (@outpost/*) are not listed.
// Exit code 1 with one line per problem; run by the lint suite of scripts/test-all.mjs.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const OWN_SCOPE = '@outpost/';

/** { '<workspace name>': Map<package, licence> } from the doc's "## <workspace>" tables. */
export function parseDependencyDoc(text) {
  const sections = {};
  let current = null;
  for (const line of text.split('\n')) {
    const heading = /^##\s+(\S+)\s*$/.exec(line);
    if (heading) {
      current = new Map();
      sections[heading[1]] = current;
      continue;
    }
    const row = /^\|\s*`([^`]+)`\s*\|\s*([^|]+?)\s*\|/.exec(line);
    if (row && current) {
      current.set(row[1], row[2]);
    }
  }
  return sections;
}

function readJson(file) {
  return JSON.parse(fs.readFileSync(file, 'utf8'));
}

function installedLicence(root, workspaceDir, name) {
  for (const dir of [workspaceDir, root]) {
    const file = path.join(dir, 'node_modules', name, 'package.json');
    if (fs.existsSync(file)) {
      const { license, licenses } = readJson(file);
      if (typeof license === 'string') {
        return license;
      }
      if (license?.type) {
        return license.type;
      }
      if (Array.isArray(licenses)) {
        return licenses.map((l) => l.type ?? l).join(' OR ');
      }
      return 'UNKNOWN';
    }
  }
  return null;
}

/** The problems found, one sentence each; empty when the doc and the packages agree. */
export function checkDependencies(root) {
  const docFile = path.join(root, 'docs', 'dependencies.md');
  if (!fs.existsSync(docFile)) {
    return ['docs/dependencies.md is missing'];
  }
  const doc = parseDependencyDoc(fs.readFileSync(docFile, 'utf8'));
  const problems = [];
  const { workspaces = [] } = readJson(path.join(root, 'package.json'));
  const seen = new Set();
  for (const workspace of workspaces) {
    const dir = path.join(root, workspace);
    const manifest = path.join(dir, 'package.json');
    if (!fs.existsSync(manifest)) {
      continue;
    }
    const { name, dependencies = {} } = readJson(manifest);
    seen.add(name);
    const used = Object.keys(dependencies).filter((dep) => !dep.startsWith(OWN_SCOPE));
    const rows = doc[name] ?? new Map();
    if (used.length > 0 && !doc[name]) {
      problems.push(`${name}: no "## ${name}" section in docs/dependencies.md`);
    }
    for (const dep of used) {
      if (!rows.has(dep)) {
        problems.push(`${name}: production dependency "${dep}" has no entry in docs/dependencies.md`);
        continue;
      }
      const licence = installedLicence(root, dir, dep);
      if (licence === null) {
        problems.push(`${name}: "${dep}" is not installed (run npm ci), so its licence cannot be checked`);
      } else if (licence !== rows.get(dep)) {
        problems.push(
          `${name}: "${dep}" is documented as ${rows.get(dep)} but its package.json says ${licence}`,
        );
      }
    }
    for (const dep of rows.keys()) {
      if (!used.includes(dep)) {
        problems.push(
          `${name}: docs/dependencies.md lists "${dep}", which is not a production dependency any more`,
        );
      }
    }
  }
  for (const section of Object.keys(doc)) {
    if (!seen.has(section)) {
      problems.push(`docs/dependencies.md has a section for "${section}", which is not a workspace`);
    }
  }
  return problems;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
  const problems = checkDependencies(root);
  if (problems.length > 0) {
    console.error(`Production dependencies and docs/dependencies.md disagree:\n  ${problems.join('\n  ')}`);
    process.exit(1);
  }
  console.log('docs/dependencies.md lists every production dependency, with its licence.');
}
