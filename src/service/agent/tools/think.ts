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
  toAction: ({ thought }) => ({ kind: 'thought', thought }),
  analyzed: () => ({ tool: 'think' }),
  execute: async () => ({ kind: 'thought_result', text: 'Your thought has been logged.' }),
});
