#!/usr/bin/env node
// Import cycles in the packages' sources (packages/*/src), type-only imports included: a cycle of
// types still ties two layers together (lib/ importing a plugin that imports a module). ESLint's
// import-x/no-cycle skips type-only imports, hence this check (docs/decisions/2026-11-26-import-cycles.md).
// Relative imports only: a package never imports a package that imports it back. Prints one line
// per cycle and exits 1; run by `npm run lint`.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const SOURCE = /\.(ts|tsx|mts)$/;
const EXTENSIONS = ['.ts', '.tsx', '.mts', '.js', '.mjs'];

/**
 * The file a relative import names, or null for a package import or a file not found.
 * @param {string} fromFile
 * @param {string} specifier
 * @param {(file: string) => boolean} isFile
 */
export function resolveImport(fromFile, specifier, isFile) {
  if (!specifier.startsWith('.')) {
    return null;
  }
  const base = path.resolve(path.dirname(fromFile), specifier);
  const candidates = [
    base,
    ...EXTENSIONS.map((ext) => base + ext),
    ...EXTENSIONS.map((ext) => path.join(base, `index${ext}`)),
    // a `.js` specifier naming its TypeScript source
    ...(/\.m?js$/.test(base)
      ? [base.replace(/\.js$/, '.ts'), base.replace(/\.js$/, '.tsx'), base.replace(/\.mjs$/, '.mts')]
      : []),
  ];
  return candidates.find((candidate) => isFile(candidate)) ?? null;
}

/**
 * Every module a source imports or re-exports, `import type` and `import()` included.
 * @param {string} text
 */
export function importsOf(text) {
  return ts.preProcessFile(text, true, true).importedFiles.map((f) => f.fileName);
}

/**
 * The import graph of these files: file → the files it imports.
 * @param {string[]} files
 * @param {(file: string) => string} read
 * @param {(file: string) => boolean} isFile
 */
export function importGraph(files, read, isFile) {
  /** @type {Map<string, string[]>} */
  const graph = new Map();
  for (const file of files) {
    const targets = importsOf(read(file))
      .map((specifier) => resolveImport(file, specifier, isFile))
      .filter((target) => target !== null && target !== file);
    graph.set(file, [...new Set(/** @type {string[]} */ (targets))]);
  }
  return graph;
}

/**
 * One cycle per strongly connected group of files (Tarjan), each as the files in import order,
 * the first repeated at the end.
 * @param {Map<string, string[]>} graph
 * @returns {string[][]}
 */
export function findCycles(graph) {
  /** @type {Map<string, number>} */
  const index = new Map();
  /** @type {Map<string, number>} */
  const low = new Map();
  /** @type {string[]} */
  const stack = [];
  const onStack = new Set();
  /** @type {string[][]} */
  const groups = [];
  let next = 0;
  /** @param {string} node */
  const visit = (node) => {
    index.set(node, next);
    low.set(node, next);
    next += 1;
    stack.push(node);
    onStack.add(node);
    for (const target of graph.get(node) ?? []) {
      if (!index.has(target)) {
        visit(target);
        low.set(node, Math.min(low.get(node) ?? 0, low.get(target) ?? 0));
      } else if (onStack.has(target)) {
        low.set(node, Math.min(low.get(node) ?? 0, index.get(target) ?? 0));
      }
    }
    if (low.get(node) === index.get(node)) {
      /** @type {string[]} */
      const group = [];
      let member;
      do {
        member = /** @type {string} */ (stack.pop());
        onStack.delete(member);
        group.push(member);
      } while (member !== node);
      if (group.length > 1) {
        groups.push(group);
      }
    }
  };
  for (const node of graph.keys()) {
    if (!index.has(node)) {
      visit(node);
    }
  }
  return groups.map((group) => cycleWithin(graph, new Set(group), group.sort()[0] ?? ''));
}

/**
 * A concrete cycle through `start` inside its group (breadth-first, so the shortest).
 * @param {Map<string, string[]>} graph
 * @param {Set<string>} group
 * @param {string} start
 */
function cycleWithin(graph, group, start) {
  /** @type {Map<string, string>} */
  const cameFrom = new Map();
  const queue = [start];
  while (queue.length > 0) {
    const node = /** @type {string} */ (queue.shift());
    for (const target of graph.get(node) ?? []) {
      if (target === start) {
        const route = [node];
        while (route[0] !== start) {
          route.unshift(/** @type {string} */ (cameFrom.get(route[0] ?? '')));
        }
        return [...route, start];
      }
      if (group.has(target) && !cameFrom.has(target)) {
        cameFrom.set(target, node);
        queue.push(target);
      }
    }
  }
  return [start];
}

/**
 * The source files under a folder (node_modules and build output left out).
 * @param {string} dir
 * @returns {string[]}
 */
export function sourceFiles(dir) {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      return entry.name === 'node_modules' || entry.name === 'dist' ? [] : sourceFiles(full);
    }
    return SOURCE.test(entry.name) && !entry.name.endsWith('.d.ts') ? [full] : [];
  });
}

const isFile = (/** @type {string} */ file) =>
  fs.statSync(file, { throwIfNoEntry: false })?.isFile() ?? false;

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
  const packages = path.join(root, 'packages');
  const files = fs
    .readdirSync(packages)
    .map((name) => path.join(packages, name, 'src'))
    .filter((dir) => fs.existsSync(dir))
    .flatMap(sourceFiles);
  const cycles = findCycles(importGraph(files, (file) => fs.readFileSync(file, 'utf8'), isFile));
  for (const cycle of cycles) {
    console.error(`import cycle: ${cycle.map((file) => path.relative(root, file)).join(' → ')}`);
  }
  if (cycles.length > 0) {
    process.exit(1);
  }
  console.log(`no import cycles in ${files.length} files`);
}
