#!/usr/bin/env node
// The `dockhand` command: runs the built CLI (npm run build creates it).
import { existsSync } from 'node:fs';
import module from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The per-user cache folder of the OS. */
function cacheDir() {
  if (process.platform === 'darwin') return path.join(os.homedir(), 'Library', 'Caches', 'dockhand');
  if (process.platform === 'win32')
    return path.join(process.env.LOCALAPPDATA || os.tmpdir(), 'dockhand', 'Cache');
  return path.join(process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache'), 'dockhand');
}

const cli = fileURLToPath(new URL('../out/main/cli.js', import.meta.url));
if (!existsSync(cli)) {
  console.error(
    'dockhand: the app is not built yet. Run `npm run build` (or scripts/dockhand, which builds it).',
  );
  process.exit(1);
}
// V8's compiled code of the CLI and its modules, kept between starts: a start then compiles almost nothing.
module.enableCompileCache?.(path.join(cacheDir(), 'compile-cache'));
await import(cli);
