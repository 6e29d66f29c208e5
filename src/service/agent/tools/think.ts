import { z } from 'zod';
import description from './think.md?raw';
import { defineTool } from './define-tool';

const Parameters = z.object({ thought: z.string().describe('The thought to log.') });

export const thinkTool = defineTool<z.infer<typeof Parameters>>({
  name: 'think',
  description,
  parameters: Parameters,
  declaresRisk: false,
  hasSideEffects: () => false,
  toAction: ({ thought }) => ({
    action: 'think',
    args: { thought },
    message: `I am thinking...: ${thought}`,
  }),
  analyzed: () => ({ tool: 'think' }),
  execute: async () => ({
    observation: 'think',
    content: 'Your thought has been logged.',
    extras: {},
    message: 'Your thought has been logged.',
  }),
});
