/**
 * The Electron executable the `electron` package installed, or why there is none. Reads the package's path.txt
 * the way its index.js does, without requiring it: `require('electron')` starts a download of a missing binary.
 *
 *   node scripts/lib/electron-binary.ts    prints the executable's path, or why there is none (exit status 1)
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

export type ElectronBinary = { path: string } | { path: null; reason: string };

/** How to get the binary, for the reasons below. */
const HOW_TO_INSTALL =
  'The electron package downloads it from GitHub (or $ELECTRON_MIRROR) with `npx install-electron --no`, ' +
  'which scripts/setup.sh runs; that download has not succeeded on this machine.';

export function electronBinary(): ElectronBinary {
  let packageDir: string;
  try {
    packageDir = path.dirname(createRequire(import.meta.url).resolve('electron/package.json'));
  } catch {
    return { path: null, reason: 'The electron package is not installed (run scripts/setup.sh).' };
  }
  const pathFile = path.join(packageDir, 'path.txt');
  const overrideDir = process.env.ELECTRON_OVERRIDE_DIST_PATH;
  if (!existsSync(pathFile) && !overrideDir) {
    return { path: null, reason: `No Electron binary: ${packageDir} has no path.txt. ${HOW_TO_INSTALL}` };
  }
  // As index.js: an override folder holds `electron` unless path.txt names another file.
  const name = existsSync(pathFile) ? readFileSync(pathFile, 'utf8').trim() : 'electron';
  const binary = path.join(overrideDir ?? path.join(packageDir, 'dist'), name);
  return existsSync(binary)
    ? { path: binary }
    : { path: null, reason: `No Electron binary: ${binary} does not exist. ${HOW_TO_INSTALL}` };
}

if (process.argv[1] === import.meta.filename) {
  const binary = electronBinary();
  if (binary.path === null) {
    console.error(binary.reason);
    process.exitCode = 1;
  } else {
    console.log(binary.path);
  }
}
