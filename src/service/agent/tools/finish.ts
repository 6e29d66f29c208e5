import { z } from 'zod';
import description from './finish.md?raw';
import { defineTool } from './define-tool';

const Parameters = z.object({ message: z.string().describe('Final message to send to the user.') });

/** Ends the task: the loop records the finish action and enters `finished`; nothing runs. */
export const finishTool = defineTool<z.infer<typeof Parameters>>({
  name: 'finish',
  description,
  parameters: Parameters,
  declaresRisk: false,
  hasSideEffects: () => false,
  toAction: ({ message }, thought) => ({ kind: 'finish', message, outputs: {}, thought }),
  analyzed: () => ({ tool: 'finish' }),
});
