import path from 'node:path';

export const ROOT = path.resolve(import.meta.dirname, '../..');
export const SCREENSHOT_DIR = path.join(ROOT, 'test-results', 'screenshots');
export const BUILT_FILES = ['out/main/cli.js', 'out/main/index.js', 'out/renderer/index.html'].map((file) =>
  path.join(ROOT, file),
);
