import { z } from 'zod';
import { EDITOR_COMMANDS } from './str-replace-editor/editor';
import description from './str-replace-editor.md?raw';
import { defineTool } from './define-tool';

const Parameters = z.object({
  command: z.enum(EDITOR_COMMANDS).describe('The command to run.'),
  path: z.string().describe('Absolute path to a file or directory, e.g. `/workspace/project/file.py`.'),
  file_text: z.string().optional().describe('`create`: the content of the new file.'),
  old_str: z.string().optional().describe('`str_replace`: the exact text to replace.'),
  new_str: z.string().optional().describe('`str_replace`: the new text; `insert`: the text to insert.'),
  insert_line: z
    .number()
    .int()
    .optional()
    .describe('`insert`: the line after which `new_str` goes (0 = top).'),
  view_range: z
    .array(z.number().int())
    .optional()
    .describe('`view`: [start, end] lines, 1-based; end -1 = to the end.'),
});
type Args = z.infer<typeof Parameters>;

const IMPL_SOURCE = 'oh_aci';

/**
 * The most characters each of an edit event's `old_content`, `new_content` and `diff` keeps. The editor takes
 * files up to 10 MiB; whole copies in every event would make each stored row, replay and stream frame as large.
 */
export const MAX_EDIT_FIELD_CHARS = 100_000;

/** `text` cut to MAX_EDIT_FIELD_CHARS, with a note of how much was left out. */
export function eventField(text: string | null | undefined): string | null {
  if (text === null || text === undefined || text.length <= MAX_EDIT_FIELD_CHARS) return text ?? null;
  const omitted = text.length - MAX_EDIT_FIELD_CHARS;
  return `${text.slice(0, MAX_EDIT_FIELD_CHARS)}\n[... ${omitted} more characters not shown ...]`;
}

export const strReplaceEditorTool = defineTool<Args>({
  name: 'str_replace_editor',
  description,
  parameters: Parameters,
  declaresRisk: true,
  hasSideEffects: ({ command }) => command !== 'view',
  toAction: (args, thought) =>
    args.command === 'view'
      ? {
          kind: 'read',
          path: args.path,
          start: 0,
          end: -1,
          thought,
          implSource: IMPL_SOURCE,
          viewRange: args.view_range ?? null,
        }
      : {
          kind: 'edit',
          path: args.path,
          command: args.command,
          fileText: args.file_text ?? null,
          oldStr: args.old_str ?? null,
          newStr: args.new_str ?? null,
          insertLine: args.insert_line ?? null,
          content: '',
          start: 1,
          end: -1,
          thought,
          implSource: IMPL_SOURCE,
        },
  analyzed: ({ command, path }) => ({ tool: 'str_replace_editor', command, path }),
  execute: async (args, { editor }) => {
    const result = await editor.run(args);
    if (args.command === 'view') {
      return { kind: 'read_result', path: args.path, text: result.text, implSource: IMPL_SOURCE };
    }
    return {
      kind: 'edit_result',
      path: args.path,
      text: result.text,
      implSource: IMPL_SOURCE,
      prevExist: result.prevExist ?? true,
      oldContent: eventField(result.oldContent),
      newContent: eventField(result.newContent),
      diff: eventField(result.diff),
    };
  },
});
