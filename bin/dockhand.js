#!/usr/bin/env node
// The `dockhand` command: runs the built CLI (npm run build creates it).
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const cli = fileURLToPath(new URL('../out/main/cli.js', import.meta.url));
if (!existsSync(cli)) {
  console.error(
    'dockhand: the app is not built yet. Run `npm run build` (or scripts/dockhand, which builds it).',
  );
  process.exit(1);
}
await import(cli);
