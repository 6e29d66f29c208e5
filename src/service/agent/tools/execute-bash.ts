import { z } from 'zod';
import { commandMetadataFromV0 } from '../../events/model/v0-codec';
import { observationText } from '../../sandbox/shell/shell-session';
import description from './execute-bash.md?raw';
import { defineTool } from './define-tool';

const Parameters = z.object({
  command: z
    .string()
    .describe(
      'The bash command to run. Empty to see more output of the running command; with is_input, text or keys for it.',
    ),
  is_input: z
    .union([z.boolean(), z.enum(['true', 'false'])])
    .optional()
    .transform((v) => v === true || v === 'true')
    .describe('"true" to send the command to the running process as input (or keys C-c, C-d, C-z, C-\\).'),
  timeout: z
    .number()
    .positive()
    .optional()
    .describe('Seconds to wait (1-600); replaces the 30 s no-output rule.'),
});

export const executeBashTool = defineTool<z.infer<typeof Parameters>>({
  name: 'execute_bash',
  description,
  parameters: Parameters,
  declaresRisk: true,
  hasSideEffects: ({ command, is_input }) => !(is_input && command.trim() === 'C-c'),
  toAction: ({ command, is_input, timeout }, thought) => ({
    kind: 'command',
    command,
    isInput: is_input,
    thought,
    blocking: timeout !== undefined,
    isStatic: false,
    cwd: null,
    hidden: false,
    ...(timeout !== undefined ? { timeout } : {}),
  }),
  analyzed: ({ command }) => ({ tool: 'execute_bash', command }),
  execute: async ({ command, is_input, timeout }, { shell }) => {
    const result = await shell.execute({ command, isInput: is_input, timeout: timeout ?? null });
    return {
      kind: 'command_result',
      command,
      output: observationText(result),
      hidden: false,
      metadata: commandMetadataFromV0({ ...result.metadata }),
      success: result.exit_code === 0,
    };
  },
});
