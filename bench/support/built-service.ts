import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { build, type Plugin } from 'esbuild';

type ServiceEntry = typeof import('./service-entry');

/** `import text from './file.md?raw'`, as Vite reads it: the file's text. */
const rawText: Plugin = {
  name: 'raw-text',
  setup(bundler) {
    bundler.onResolve({ filter: /\?raw$/ }, (args) => ({
      path: path.resolve(args.resolveDir, args.path.slice(0, -'?raw'.length)),
      namespace: 'raw-text',
    }));
    bundler.onLoad({ filter: /.*/, namespace: 'raw-text' }, async (args) => ({
      contents: await readFile(args.path, 'utf8'),
      loader: 'text',
    }));
  },
};

/**
 * The service bundled as the app's build bundles it (one ES module, packages left to node_modules), so a
 * bench measures what users run: under the dev loader (tsx) every function of ours is also renamed at run
 * time (esbuild's keepNames), which a request pays for and the bare baseline does not.
 */
export async function builtService(): Promise<ServiceEntry> {
  // Inside the project, so that the bundle's imports of packages resolve to its node_modules.
  const cache = path.join(import.meta.dirname, '..', '..', 'node_modules', '.cache');
  mkdirSync(cache, { recursive: true });
  const dir = mkdtempSync(path.join(cache, 'dockhand-bench-build-'));
  const outfile = path.join(dir, 'service.mjs');
  try {
    await build({
      entryPoints: [path.join(import.meta.dirname, 'service-entry.ts')],
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node24',
      packages: 'external',
      outfile,
      plugins: [rawText],
      logLevel: 'warning',
    });
    return (await import(pathToFileURL(outfile).href)) as ServiceEntry;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
