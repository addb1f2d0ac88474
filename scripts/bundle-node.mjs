// Compiles a Node workspace (server, agent) to JavaScript with esbuild. The @outpost/* workspaces
// export their TypeScript sources, so they are inlined; every npm dependency stays an import that
// Node resolves from node_modules at run time, and must be declared in the package's package.json
// (the build fails when one would be bundled instead).
import fs from 'node:fs';
import path from 'node:path';
import * as esbuild from 'esbuild';

/**
 * @param {{ packageDir: string, entryPoints: Record<string, string>, splitting?: boolean }} options
 *   entryPoints maps an output name (`main`, `sim/main`) to a source file, relative to packageDir.
 * @returns {Promise<import('esbuild').Metafile>}
 */
export async function bundleNode({ packageDir, entryPoints, splitting = false }) {
  const pkg = JSON.parse(fs.readFileSync(path.join(packageDir, 'package.json'), 'utf8'));
  const external = Object.keys(pkg.dependencies ?? {}).filter((name) => !name.startsWith('@outpost/'));
  const outdir = path.join(packageDir, 'dist');
  fs.rmSync(outdir, { recursive: true, force: true });
  const result = await esbuild.build({
    absWorkingDir: packageDir,
    entryPoints: Object.entries(entryPoints).map(([out, src]) => ({ out, in: src })),
    outdir,
    bundle: true,
    splitting,
    // Chunks sit beside the entries so that paths computed from import.meta.url (the web build,
    // the migrations) are the same from every output file.
    chunkNames: '[name]-[hash]',
    platform: 'node',
    format: 'esm',
    target: 'node20',
    sourcemap: true,
    external,
    metafile: true,
    logLevel: 'warning',
  });
  const bundledPackages = Object.keys(result.metafile.inputs).filter((input) =>
    input.includes('node_modules/'),
  );
  if (bundledPackages.length > 0) {
    throw new Error(
      `${pkg.name}: these npm files would be bundled; declare their packages in dependencies:\n  ${bundledPackages.join('\n  ')}`,
    );
  }
  return result.metafile;
}

/**
 * Output files an entry loads before it runs (its static imports, transitively), relative to
 * packageDir; a chunk reached only through import() is not among them.
 */
export function staticClosure(metafile, packageDir, entryOutput) {
  const seen = new Set();
  const visit = (output) => {
    if (seen.has(output)) {
      return;
    }
    seen.add(output);
    for (const imported of metafile.outputs[output]?.imports ?? []) {
      if (imported.kind === 'import-statement' && !imported.external) {
        visit(imported.path);
      }
    }
  };
  visit(path.relative(packageDir, path.join(packageDir, entryOutput)));
  return [...seen];
}
