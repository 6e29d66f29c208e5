// Lets Node import text files with the `?raw` suffix, as Vite and Vitest do (tool descriptions, prompts),
// for scripts run outside the build such as the benchmarks: node --import tsx --import ./scripts/lib/raw-import.mjs
import { register } from 'node:module';

register('./raw-import-hooks.mjs', import.meta.url);
