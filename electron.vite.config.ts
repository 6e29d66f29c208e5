import { resolve } from 'node:path';
import { defineConfig } from 'electron-vite';
import react from '@vitejs/plugin-react';

/**
 * Pure-JS dependencies of the service bundled into out/main: one file instead of hundreds to resolve and
 * scan at start. Native modules (keytar, dockerode's optional ssh2), packages whose
 * instances are shared with external ones (zod) and those loaded only later (the AI and MCP SDKs) stay
 * external.
 */
const BUNDLED_DEPS = [
  'express',
  'socket.io',
  'pino',
  '@asteasolutions/zod-to-openapi',
  'multer',
  'path-to-regexp',
  'yaml',
  'diff',
  'tar-stream',
  'yazl',
  'ws',
];

export default defineConfig({
  main: {
    build: {
      externalizeDeps: { exclude: BUNDLED_DEPS },
      rollupOptions: {
        input: {
          index: resolve(__dirname, 'src/main/index.ts'),
          cli: resolve(__dirname, 'src/service/cli.ts'),
        },
      },
    },
  },
  preload: {
    build: {
      // Sandboxed preloads must be CommonJS; .cjs because package.json says "type": "module".
      rollupOptions: {
        input: { index: resolve(__dirname, 'src/preload/index.ts') },
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  renderer: {
    root: resolve(__dirname, 'src/renderer'),
    build: {
      rollupOptions: { input: { index: resolve(__dirname, 'src/renderer/index.html') } },
    },
    plugins: [react()],
  },
});
