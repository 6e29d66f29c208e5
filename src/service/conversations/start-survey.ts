import path from 'node:path';
import { ROOT_FILE_NAMES } from '../microagents/load-microagents';
import type { SurveyRoot } from '../sandbox/files/sandbox-files';
import { sandboxStateDir, SETUP_DONE_FILE } from './setup-script';

/** How deep below `.openhands` microagents are read ahead (deeper ones are read from the sandbox). */
const OPENHANDS_DEPTH = 6;

/**
 * What the start pipeline reads of a workspace, surveyed at once: the repository root's listing and its
 * microagent files (AGENTS.md and the like), `.openhands` (setup script, pre-commit script, microagents)
 * and the digest of the setup script's last run.
 */
export function startSurveyRoots(repoDir: string, workingDir: string): SurveyRoot[] {
  return [
    { path: repoDir, depth: 1, read: false },
    ...ROOT_FILE_NAMES.map((name) => ({ path: path.posix.join(repoDir, name), depth: 0, read: true })),
    { path: path.posix.join(repoDir, '.openhands'), depth: OPENHANDS_DEPTH, read: true },
    { path: path.posix.join(sandboxStateDir(workingDir), SETUP_DONE_FILE), depth: 0, read: true },
  ];
}

/** What a new sandbox's first probe reads ahead: the start survey of a workspace with no repository yet. */
export function readAheadRoots(workingDir: string): SurveyRoot[] {
  return startSurveyRoots(workingDir, workingDir);
}
