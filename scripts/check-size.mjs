#!/usr/bin/env node
// Size limits (docs/architecture.md "Rules"): no source file over 400 lines and no function over
// 150, outside tests and generated files. Run by `npm run lint`; prints every file and function
// over its limit and exits non-zero when there is one.
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

export const MAX_FILE_LINES = 400;
export const MAX_FUNCTION_LINES = 150;

const root = path.resolve(import.meta.dirname, '..');
/** Where the project's own sources live; everything else (node_modules, builds) is not ours. */
const SOURCE_ROOTS = ['packages', 'e2e', 'bench', 'scripts'];
const SKIPPED_FOLDERS = new Set(['node_modules', 'dist', 'coverage', '.data', 'migrations', 'test-results']);
const SOURCE_FILE = /\.(ts|tsx|mts|mjs|js)$/;
/** Tests and test-only support are exempt: a test file is a list of cases, not a design. */
const TEST_FILE = /\.(test|spec)\.(ts|tsx)$|\.d\.m?ts$/;

function* sourceFiles(dir) {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (entry.isDirectory()) {
      if (!SKIPPED_FOLDERS.has(entry.name) && !entry.name.startsWith('.')) {
        yield* sourceFiles(path.join(dir, entry.name));
      }
    } else if (SOURCE_FILE.test(entry.name) && !TEST_FILE.test(entry.name)) {
      yield path.join(dir, entry.name);
    }
  }
}

function functionName(node, source) {
  if (node.name) {
    return node.name.getText(source);
  }
  const parent = node.parent;
  if (parent && (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent)) && parent.name) {
    return parent.name.getText(source);
  }
  if (parent && ts.isCallExpression(parent)) {
    return `callback of ${parent.expression.getText(source).slice(0, 40)}`;
  }
  return '(anonymous)';
}

/**
 * Every file and function of `text` over its limit.
 * @param {string} fileName
 * @param {string} text
 * @returns {{ kind: 'file' | 'function', name: string, line: number, lines: number }[]}
 */
export function oversized(fileName, text) {
  /** @type {{ kind: 'file' | 'function', name: string, line: number, lines: number }[]} */
  const found = [];
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true);
  const lineOf = (pos) => source.getLineAndCharacterOfPosition(pos).line + 1;
  const fileLines = text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
  if (fileLines > MAX_FILE_LINES) {
    found.push({ kind: 'file', name: fileName, line: 1, lines: fileLines });
  }
  const visit = (node) => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body) {
      const first = lineOf(node.getStart(source));
      const lines = lineOf(node.end) - first + 1;
      if (lines > MAX_FUNCTION_LINES) {
        found.push({ kind: 'function', name: functionName(node, source), line: first, lines });
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

function main() {
  const problems = [];
  for (const top of SOURCE_ROOTS) {
    for (const file of sourceFiles(path.join(root, top))) {
      const relative = path.relative(root, file);
      for (const p of oversized(relative, fs.readFileSync(file, 'utf8'))) {
        problems.push(
          p.kind === 'file'
            ? `${relative}: ${p.lines} lines (at most ${MAX_FILE_LINES} per file)`
            : `${relative}:${p.line} function ${p.name}: ${p.lines} lines (at most ${MAX_FUNCTION_LINES})`,
        );
      }
    }
  }
  if (problems.length > 0) {
    console.error(`Size limits exceeded:\n  ${problems.join('\n  ')}`);
    process.exit(1);
  }
  console.log(
    `Size limits hold: no source file over ${MAX_FILE_LINES} lines, no function over ${MAX_FUNCTION_LINES}.`,
  );
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main();
}
