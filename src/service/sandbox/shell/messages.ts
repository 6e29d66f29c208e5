/** The exact texts the shell adds to command output (agent-behaviour §3.1 and §2.7). */

export const ADVICE =
  'You may wait longer to see additional output by sending empty command \'\', send other commands to interact with the current process, send keys ("C-c", "C-z", "C-d") to interrupt/kill the previous command before sending your new command, or use the timeout parameter in execute_bash for future commands.';

export const CONTINUED_PREFIX = '[Below is the output of the previous command.]\n';

export const NO_COMMAND_FOR_LOGS = 'ERROR: No previous running command to retrieve logs from.';

export const NO_COMMAND_FOR_INPUT = 'ERROR: No previous running command to interact with.';

export const STOPPED_SUFFIX = '\n[The command was interrupted by the user (Stop).]';

export function completedSuffix(exitCode: number, keyName: string | null): string {
  return keyName
    ? `\n[The command completed with exit code ${exitCode}. ${keyName} was sent.]`
    : `\n[The command completed with exit code ${exitCode}.]`;
}

export function noChangeSuffix(seconds: number): string {
  return `\n[The command has no new output after ${seconds} seconds. ${ADVICE}]`;
}

export function hardTimeoutSuffix(seconds: number): string {
  return `\n[The command timed out after ${seconds} seconds. ${ADVICE}]`;
}

export function shellExitedSuffix(exitCode: number, workingDir: string): string {
  return `\n[The shell exited with code ${exitCode} and was restarted in ${workingDir}; exported variables and jobs are gone.]`;
}

export function refusedSuffix(command: string): string {
  return `\n[Your command "${command}" is NOT executed. The previous command is still running - You CANNOT send new commands until the previous command is completed. By setting \`is_input\` to \`true\`, you can interact with the current process: ${ADVICE}]`;
}

export function restartedPrefix(workingDir: string): string {
  return `[The shell was restarted; exported variables and jobs are gone. Working directory: ${workingDir}]\n`;
}

export function truncationNote(totalChars: number, logPath: string): string {
  return `\n[... Observation truncated due to length; full output (${totalChars} chars) saved to ${logPath} ...]\n`;
}

export function workingDirLine(workingDir: string): string {
  return `\n[Current working directory: ${workingDir}]`;
}

export function pythonLine(interpreter: string): string {
  return `\n[Python interpreter: ${interpreter}]`;
}

export function truncationNoteUnsaved(totalChars: number, reason: string): string {
  return `\n[... Observation truncated due to length; the full output (${totalChars} chars) could not be saved: ${reason} ...]\n`;
}
