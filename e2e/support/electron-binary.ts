import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

export type ElectronBinary = { path: string } | { path: null; reason: string };

/**
 * The Electron executable the `electron` package installed, or why there is none. Reads the package's
 * path.txt the way its index.js does, without requiring it: `require('electron')` tries to download a
 * missing binary, which these machines cannot do.
 */
export function electronBinary(): ElectronBinary {
  let packageDir: string;
  try {
    packageDir = path.dirname(createRequire(import.meta.url).resolve('electron/package.json'));
  } catch {
    return { path: null, reason: 'The electron package is not installed.' };
  }
  const pathFile = path.join(packageDir, 'path.txt');
  if (!existsSync(pathFile)) {
    return {
      path: null,
      reason:
        `No Electron binary: ${packageDir} has no path.txt and no dist/, as when it is installed with ` +
        'ELECTRON_SKIP_BINARY_DOWNLOAD=1 on a machine that cannot download the binary.',
    };
  }
  const distDir = process.env.ELECTRON_OVERRIDE_DIST_PATH ?? path.join(packageDir, 'dist');
  const binary = path.join(distDir, readFileSync(pathFile, 'utf8').trim());
  return existsSync(binary)
    ? { path: binary }
    : { path: null, reason: `No Electron binary: ${binary} (named by ${pathFile}) does not exist.` };
}
