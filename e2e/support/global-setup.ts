import { existsSync, rmSync } from 'node:fs';
import path from 'node:path';
import { BUILT_FILES, ROOT, SCREENSHOT_DIR } from './paths';

/** The tests drive the built app: fail early, and say how to fix it, when the build is missing. */
export default function globalSetup(): void {
  const missing = BUILT_FILES.filter((file) => !existsSync(file)).map((file) => path.relative(ROOT, file));
  if (missing.length > 0) {
    throw new Error(
      `The app is not built (missing ${missing.join(', ')}). Run \`npx electron-vite build\` first.`,
    );
  }
  rmSync(SCREENSHOT_DIR, { recursive: true, force: true });
}
