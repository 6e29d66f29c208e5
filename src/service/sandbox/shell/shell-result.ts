import type { PromptMetadata } from './prompt-marker';

export type ShellOutcome =
  'completed' | 'no_change_timeout' | 'hard_timeout' | 'shell_exited' | 'refused' | 'interrupted' | 'error';

/** OpenHands' CmdOutputMetadata; `pid` is the shell's own pid. */
export interface ShellMetadata {
  exit_code: number;
  pid: number;
  username: string | null;
  hostname: string | null;
  working_dir: string | null;
  py_interpreter_path: string | null;
  prefix: string;
  suffix: string;
}

export interface ShellResult {
  command: string;
  outcome: ShellOutcome;
  /** Cleaned (and possibly truncated) output, without prefix and suffix. */
  output: string;
  /** -1 while the command still runs, and for refusals and errors. */
  exit_code: number;
  metadata: ShellMetadata;
}

/** What a result says besides the prompt's metadata. */
export interface ResultParts {
  command: string;
  outcome: ShellOutcome;
  output: string;
  exitCode: number;
  prefix: string;
  suffix: string;
}

/**
 * A result whose metadata is the last prompt's (the shell's pid, user, host, directory and interpreter), or
 * unknown (-1, null) before the shell's first prompt.
 */
export function shellResult(prompt: PromptMetadata | null, parts: ResultParts): ShellResult {
  const { command, outcome, output, exitCode, prefix, suffix } = parts;
  return {
    command,
    outcome,
    output,
    exit_code: exitCode,
    metadata: {
      exit_code: exitCode,
      pid: prompt?.pid ?? -1,
      username: prompt?.username ?? null,
      hostname: prompt?.hostname ?? null,
      working_dir: prompt?.working_dir ?? null,
      py_interpreter_path: prompt?.py_interpreter_path || null,
      prefix,
      suffix,
    },
  };
}
