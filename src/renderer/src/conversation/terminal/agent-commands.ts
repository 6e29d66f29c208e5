import type { V0Event } from '../../../../shared/api/events';
import { commandOutput } from '../command-output';

const PROMPT = '\u001b[1;32m$\u001b[0m';
const RED = '\u001b[31m';
const RESET = '\u001b[0m';

/**
 * The commands the agent ran and their output, as a terminal would have shown them: `$ command`, the output,
 * and a non-zero exit code, with a blank line after each. Commands hidden from the model (setup steps) and
 * their output are left out. Line ends are the terminal's (`\r\n`).
 */
export function agentCommandText(events: readonly V0Event[]): string {
  const hidden = new Set<number>();
  let text = '';
  for (const event of events) {
    const args = (event.args ?? {}) as { command?: unknown; hidden?: unknown };
    if (event.action === 'run') {
      if (args.hidden === true) hidden.add(event.id);
      else text += `${PROMPT} ${typeof args.command === 'string' ? args.command : ''}\n`;
    } else if (event.observation === 'run' && !(event.cause !== undefined && hidden.has(event.cause))) {
      const output = commandOutput(event.content ?? '');
      if (output) text += output.endsWith('\n') ? output : `${output}\n`;
      const metadata = event.extras?.metadata as { exit_code?: unknown } | undefined;
      const exitCode = metadata?.exit_code;
      if (typeof exitCode === 'number' && exitCode !== 0) text += `${RED}[exit code ${exitCode}]${RESET}\n`;
      text += '\n';
    }
  }
  return text.replace(/\r?\n/g, '\r\n');
}
