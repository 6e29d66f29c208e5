import type { FileSurvey, SurveyRoot } from '../files/sandbox-files';
import { parseSurvey, SURVEY_SCRIPT, surveyArgs, surveyRoots } from '../files/survey-command';
import type { ExecResult } from '../sandbox-workspace';

export interface FirstProbeOptions {
  /** The volume's mount point, handed to the user. */
  workspaceDir: string;
  /** The spec's working directory, made and handed to the user. */
  workingDir: string;
  /** The image's non-root user, or null for root. */
  user: string | null;
  /** The folders to read ahead (none: the probe only checks that commands run). */
  roots: SurveyRoot[];
}

/** Hands the workspace to the user: $0 the volume, $1 the working dir, $2 the user; then drops $1. */
const PREPARE = 'mkdir -p "$1" && chown "$2" "$0" "$1" || exit 1\nshift\n';

/**
 * The first readiness probe of a new container, run as root: it hands /workspace (a fresh volume) and the
 * working dir to the sandbox's user and, in the same exec, surveys the folders the start pipeline reads, so
 * that a conversation starts without asking the sandbox again.
 */
export function firstProbeCommand(options: FirstProbeOptions): string[] {
  const { workspaceDir, workingDir, user } = options;
  const roots = surveyRoots(options.roots);
  if (roots.length === 0) {
    return user ? ['sh', '-c', PREPARE, workspaceDir, workingDir, user] : ['true'];
  }
  const survey = surveyArgs(roots, user);
  return user
    ? ['sh', '-c', PREPARE + SURVEY_SCRIPT, workspaceDir, workingDir, ...survey]
    : ['sh', '-c', SURVEY_SCRIPT, 'sh', ...survey];
}

/** What a passed first probe read ahead, when it stands for what the user sees (see parseSurvey). */
export function readAheadOf(result: ExecResult, options: FirstProbeOptions): FileSurvey | null {
  if (options.roots.length === 0) return null;
  return parseSurvey(result.stdout, surveyRoots(options.roots), result.truncated);
}
