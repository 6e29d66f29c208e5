import { z } from 'zod';
import description from './task-tracker.md?raw';
import { defineTool } from './define-tool';

const TaskItem = z.object({
  id: z.string(),
  title: z.string(),
  status: z.enum(['todo', 'in_progress', 'done']),
  notes: z.string().optional(),
});
const Parameters = z.object({
  command: z.enum(['view', 'plan']),
  task_list: z.array(TaskItem).optional(),
});

export const taskTrackerTool = defineTool<z.infer<typeof Parameters>>({
  name: 'task_tracker',
  description,
  parameters: Parameters,
  declaresRisk: false,
  hasSideEffects: () => false,
  toAction: ({ command, task_list }, thought) => ({ kind: 'plan', command, tasks: task_list ?? [], thought }),
  analyzed: () => ({ tool: 'task_tracker' }),
  execute: async ({ command, task_list }, { tasks }) => {
    let content: string;
    if (command === 'plan') {
      const list = task_list ?? [];
      tasks.replace(list);
      content = `Task list has been updated with ${list.length} items.`;
    } else {
      content = tasks.read() ?? 'No task list found. Use the "plan" command to create one.';
    }
    return { kind: 'plan_result', command, tasks: task_list ?? [], text: content };
  },
});
