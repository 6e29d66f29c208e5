import os from 'node:os';
import path from 'node:path';

/** The data folder: DOCKHAND_DATA_DIR, else $XDG_DATA_HOME/dockhand, else ~/.local/share/dockhand. */
export function defaultDataDir(env: NodeJS.ProcessEnv): string {
  if (env.DOCKHAND_DATA_DIR) return path.resolve(env.DOCKHAND_DATA_DIR);
  const base = env.XDG_DATA_HOME || path.join(os.homedir(), '.local', 'share');
  return path.join(base, 'dockhand');
}
