import { randomBytes } from 'node:crypto';
import { SANDBOX_ID_PATTERN } from '../../shared/api/sandboxes';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const ID_LENGTH = 22;
/** Bytes at or above this would bias the modulo; they are drawn again. */
const UNBIASED_LIMIT = 256 - (256 % BASE62.length);

/** `sbx-` and 22 uniformly random base62 characters (about 131 bits). */
export function newSandboxId(): string {
  let id = '';
  while (id.length < ID_LENGTH) {
    for (const byte of randomBytes(ID_LENGTH * 2)) {
      if (byte < UNBIASED_LIMIT && id.length < ID_LENGTH) id += BASE62[byte % BASE62.length];
    }
  }
  return `sbx-${id}`;
}

export function isSandboxId(value: string): boolean {
  return SANDBOX_ID_PATTERN.test(value);
}

/** The Docker container of a sandbox. */
export function containerName(sandboxId: string): string {
  return `dockhand-${sandboxId}`;
}

/** The Docker volume holding a sandbox's /workspace. */
export function volumeName(sandboxId: string): string {
  return `dockhand-ws-${sandboxId}`;
}
