import { posix } from 'node:path';
import type { FileSurvey, SurveyRoot } from './sandbox-files';

export type { FileSurvey, SurveyRoot };

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
