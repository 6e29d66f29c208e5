import { chmodSync, closeSync, mkdirSync, openSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** The data folder: DOCKHAND_DATA_DIR, else $XDG_DATA_HOME/dockhand, else ~/.local/share/dockhand. */
export function defaultDataDir(env: NodeJS.ProcessEnv): string {
  if (env.DOCKHAND_DATA_DIR) return path.resolve(env.DOCKHAND_DATA_DIR);
  const base = env.XDG_DATA_HOME || path.join(os.homedir(), '.local', 'share');
  return path.join(base, 'dockhand');
}

/** The modes of the data folder and of the folders and files the service keeps in it: its user's only. */
export const PRIVATE_FOLDER_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;

/**
 * Creates `folder` (with missing parents) private, or makes it private again when it exists: a folder made
 * by someone else (the user, an installer, an older version) may be open to every user of the machine.
 */
export function privateFolder(folder: string): void {
  mkdirSync(folder, { recursive: true, mode: PRIVATE_FOLDER_MODE });
  chmodSync(folder, PRIVATE_FOLDER_MODE);
}

/** Creates `file` empty and private when it is missing, or makes it private again when it exists. */
export function privateFile(file: string): void {
  closeSync(openSync(file, 'a', PRIVATE_FILE_MODE));
  chmodSync(file, PRIVATE_FILE_MODE);
}

/** Makes `file` private when it exists. */
export function privateIfPresent(file: string): void {
  try {
    chmodSync(file, PRIVATE_FILE_MODE);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}
