import { posix } from 'node:path';
import type { FileInfo } from './sandbox-files';

/** A folder (or file) to survey, `depth` levels down; with `read`, the bytes of its small regular files too. */
export interface SurveyRoot {
  path: string;
  depth: number;
  read: boolean;
}

/**
 * What stood in a sandbox's folders at one moment, taken in one round trip: every entry down to each root's
 * depth and the bytes of its small files. It answers the start pipeline's many small questions (is there a
 * setup script, which microagents, is there a hook) without asking the sandbox each time.
 */
export interface FileSurvey {
  roots: SurveyRoot[];
  /** Every entry found, each root's own included, by normalised path; a missing root has none. */
  entries: Map<string, FileInfo>;
  /** The bytes of read roots' regular files up to SURVEY_MAX_FILE_BYTES each. */
  contents: Map<string, Buffer>;
}

/** Larger files are listed but not read ahead (a read of one goes to the sandbox). */
export const SURVEY_MAX_FILE_BYTES = 1_000_000;

/**
 * The survey's root holding `path` within its depth that reaches furthest below it, and how far below that
 * root `path` is; null when no root holds it.
 */
export function surveyRootOf(survey: FileSurvey, path: string): { root: SurveyRoot; depth: number } | null {
  let best: { root: SurveyRoot; depth: number } | null = null;
  for (const root of survey.roots) {
    const relative = posix.relative(root.path, path);
    if (relative.startsWith('..') || posix.isAbsolute(relative)) continue;
    const depth = relative === '' ? 0 : relative.split('/').length;
    if (depth <= root.depth && (!best || root.depth - depth > best.root.depth - best.depth))
      best = { root, depth };
  }
  return best;
}

/**
 * Whether every entry of the survey is readable (folders also searchable) by a user with these ids, by
 * POSIX permission bits: a survey taken as root may answer for the sandbox user only then.
 */
export function readableBy(survey: FileSurvey, uid: number, gids: number[]): boolean {
  if (uid === 0) return true;
  for (const entry of survey.entries.values()) {
    if (entry.type === 'symlink') continue;
    const need = entry.type === 'directory' ? 0o5 : 0o4;
    const shift = entry.uid === uid ? 6 : gids.includes(entry.gid) ? 3 : 0;
    if (((entry.mode >> shift) & need) !== need) return false;
  }
  return true;
}
