import { posix } from 'node:path';
import { createPatch } from 'diff';
import { SandboxFileError, type SandboxFiles } from '../../../sandbox/files/sandbox-files';
import type { EditHistory } from './edit-history';
import { catN, decodeText, encodeText, looksBinary, newTextFile, type TextFile } from './text-file';

export const EDITOR_COMMANDS = ['view', 'create', 'str_replace', 'insert', 'undo_edit'] as const;
export type EditorCommand = (typeof EDITOR_COMMANDS)[number];

export interface EditorArgs {
  command: EditorCommand;
  path: string;
  file_text?: string | null;
  old_str?: string | null;
  new_str?: string | null;
  insert_line?: number | null;
  view_range?: number[] | null;
}

/** What an editor command produced: the observation text and, for writes, the contents for the UI. */
export interface EditorResult {
  text: string;
  isError: boolean;
  prevExist?: boolean;
  oldContent?: string | null;
  newContent?: string | null;
  diff?: string;
}

/** The file operations the editor needs: the sandbox's, plus removal for undoing a create. */
export type EditorFiles = Pick<SandboxFiles, 'read' | 'write' | 'stat' | 'list'> & {
  remove(path: string): Promise<void>;
};

const MAX_FILE_BYTES = 10 * 1024 * 1024;
const MAX_VIEW_CHARS = 16_000;
const SNIPPET_LINES = 4;
const CLIPPED = '<response clipped><NOTE>Output limit reached. Use grep -n, then view_range.</NOTE>';
const REVIEW = 'Review the changes and make sure they are as expected. Edit the file again if necessary.';
const REVIEW_INSERT =
  'Review the changes and make sure they are as expected (correct indentation, no duplicate lines, etc). Edit the file again if necessary.';

/** An editor failure: its text becomes `ERROR:\n<text>`. */
class EditorError extends Error {}

function fail(text: string): never {
  throw new EditorError(text);
}

function tooLarge(size: number | null): string {
  const measured = size === null ? '' : ` (${(size / 1024 / 1024).toFixed(1)} MB)`;
  return `File is too large${measured}. Maximum allowed size is 10 MB.`;
}

function splitLines(text: string): string[] {
  if (text === '') return [];
  return (text.endsWith('\n') ? text.slice(0, -1) : text).split('\n');
}

function joinLines(lines: string[], trailingNewline: boolean): string {
  return lines.join('\n') + (trailingNewline && lines.length ? '\n' : '');
}

function clip(text: string): string {
  return text.length > MAX_VIEW_CHARS ? `${text.slice(0, MAX_VIEW_CHARS)}${CLIPPED}` : text;
}

function required<T>(value: T | null | undefined, name: string, command: string): T {
  if (value === null || value === undefined)
    fail(`Parameter \`${name}\` is required for command: ${command}.`);
  return value;
}

function lineNumbersOf(text: string, needle: string): number[] {
  const lines: number[] = [];
  for (let at = text.indexOf(needle); at !== -1; at = text.indexOf(needle, at + 1)) {
    lines.push(text.slice(0, at).split('\n').length);
  }
  return lines;
}

/**
 * The `str_replace_editor` tool: view, create, str_replace, insert and undo_edit on files in the sandbox,
 * with OpenHands' messages. Checks run in the documented order; the first failure is the answer.
 */
export class Editor {
  constructor(
    private readonly files: EditorFiles,
    private readonly history: EditHistory,
    private readonly cwd: () => string,
  ) {}

  async run(args: EditorArgs): Promise<EditorResult> {
    try {
      return await this.dispatch(args);
    } catch (error) {
      if (error instanceof EditorError) return { text: `ERROR:\n${error.message}`, isError: true };
      throw error;
    }
  }

  private async dispatch(args: EditorArgs): Promise<EditorResult> {
    const { command, path } = args;
    if (!(EDITOR_COMMANDS as readonly string[]).includes(command)) {
      fail(
        `Unrecognized command ${command}. The allowed commands for the str_replace_editor tool are: ${EDITOR_COMMANDS.join(', ')}`,
      );
    }
    await this.checkAbsolute(path);
    const info = await this.files.stat(path);
    if (command === 'create') {
      if (info) fail(`File already exists at: ${path}. Cannot overwrite files using command \`create\`.`);
      return this.create(path, required(args.file_text, 'file_text', command));
    }
    if (!info) fail(`The path ${path} does not exist. Please provide a valid path.`);
    if (info.type === 'directory') {
      if (command !== 'view')
        fail(`The path ${path} is a directory and only the \`view\` command can be used on directories.`);
      return this.viewDirectory(path);
    }
    if (info.size > MAX_FILE_BYTES) fail(tooLarge(info.size));
    const bytes = await this.read(path);
    if (looksBinary(bytes))
      fail('File appears to be binary and this file type cannot be read or edited by this tool.');
    const file = decodeText(bytes);
    switch (command) {
      case 'view':
        return this.viewFile(path, file, args.view_range ?? null);
      case 'str_replace':
        return this.replace(
          path,
          bytes,
          file,
          required(args.old_str, 'old_str', command),
          args.new_str ?? '',
        );
      case 'insert':
        return this.insert(
          path,
          bytes,
          file,
          required(args.insert_line, 'insert_line', command),
          required(args.new_str, 'new_str', command),
        );
      default:
        return this.undo(path);
    }
  }

  /** The file's bytes, counted as they are read: it may have grown since it was measured. */
  private async read(path: string): Promise<Buffer> {
    try {
      return await this.files.read(path, { maxBytes: MAX_FILE_BYTES });
    } catch (error) {
      if (error instanceof SandboxFileError && error.code === 'too_large') fail(tooLarge(null));
      throw error;
    }
  }

  private async checkAbsolute(path: string): Promise<void> {
    if (path.startsWith('/')) return;
    const suggestion = posix.join(this.cwd(), path);
    const exists = (await this.files.stat(suggestion)) !== null;
    fail(
      `Invalid \`path\` parameter: ${path}. The path should be an absolute path, starting with \`/\`.${exists ? ` Maybe you meant ${suggestion}?` : ''}`,
    );
  }

  private viewFile(path: string, file: TextFile, range: number[] | null): EditorResult {
    const lines = splitLines(file.text);
    const header = `Here's the result of running \`cat -n\` on ${path}:\n`;
    if (!range) return { text: clip(header + catN(lines)), isError: false };
    const shown = `[${range.join(', ')}]`;
    if (range.length !== 2 || !range.every(Number.isInteger)) {
      fail(`Invalid \`view_range\` parameter: ${shown}. It should be a list of two integers.`);
    }
    const [first, last] = range as [number, number];
    const count = lines.length;
    if (first < 1 || first > Math.max(count, 1)) {
      fail(
        `Invalid \`view_range\` parameter: ${shown}. Its first element \`${first}\` should be within the range of lines of the file: [1, ${count}].`,
      );
    }
    if (last !== -1 && last < first) {
      fail(
        `Invalid \`view_range\` parameter: ${shown}. Its second element \`${last}\` should be larger or equal than its first \`${first}\`.`,
      );
    }
    const end = last === -1 || last > count ? count : last;
    const note =
      last > count
        ? `\nNOTE: We only show up to ${count} since there're only ${count} lines in this file.`
        : '';
    return { text: clip(header + catN(lines.slice(first - 1, end), first)) + note, isError: false };
  }

  private async viewDirectory(path: string): Promise<EditorResult> {
    const entries = await this.files.list(path);
    const visible = entries.filter((e) => !e.name.startsWith('.'));
    const hidden = entries.length - visible.length;
    const listed: string[] = [];
    for (const entry of visible) {
      listed.push(entry.type === 'directory' ? `${entry.path}/` : entry.path);
      if (entry.type !== 'directory') continue;
      const children = await this.files.list(entry.path).catch(() => []);
      for (const child of children.filter((c) => !c.name.startsWith('.'))) {
        listed.push(child.type === 'directory' ? `${child.path}/` : child.path);
      }
    }
    listed.sort();
    const note =
      hidden > 0
        ? `\n\n${hidden} hidden files/directories in this directory are excluded. You can use 'ls -la ${path}' to see them.`
        : '';
    return {
      text: `Here's the files and directories up to 2 levels deep in ${path}, excluding hidden items:\n${listed.join('\n')}${note}`,
      isError: false,
    };
  }

  private async create(path: string, text: string): Promise<EditorResult> {
    await this.files.write(path, encodeText(newTextFile(), text));
    this.history.push(path, null);
    return {
      text: `File created successfully at: ${path}`,
      isError: false,
      prevExist: false,
      oldContent: null,
      newContent: text,
      diff: createPatch(path, '', text),
    };
  }

  private async replace(
    path: string,
    bytes: Buffer,
    file: TextFile,
    oldStr: string,
    newStr: string,
  ): Promise<EditorResult> {
    if (oldStr === newStr) fail('No replacement was performed. `new_str` and `old_str` must be different.');
    let [find, replacement] = [oldStr, newStr];
    if (!file.text.includes(find)) [find, replacement] = [oldStr.trim(), newStr.trim()];
    const occurrences = find === '' ? [] : lineNumbersOf(file.text, find);
    if (occurrences.length === 0)
      fail(`No replacement was performed, old_str \`${oldStr}\` did not appear verbatim in ${path}.`);
    if (occurrences.length > 1) {
      fail(
        `No replacement was performed. Multiple occurrences of old_str \`${oldStr}\` in lines [${occurrences.join(', ')}]. Please ensure it is unique.`,
      );
    }
    const at = file.text.indexOf(find);
    const next = file.text.slice(0, at) + replacement + file.text.slice(at + find.length);
    const changedLine = (occurrences[0] as number) - 1;
    const start = Math.max(0, changedLine - SNIPPET_LINES);
    const end = changedLine + SNIPPET_LINES + replacement.split('\n').length - 1;
    const snippet = catN(splitLines(next).slice(start, end + 1), start + 1);
    await this.save(path, bytes, file, next);
    return this.written(
      path,
      file.text,
      next,
      `The file ${path} has been edited. Here's the result of running \`cat -n\` on a snippet of ${path}:\n${snippet}\n${REVIEW}`,
    );
  }

  private async insert(
    path: string,
    bytes: Buffer,
    file: TextFile,
    line: number,
    newStr: string,
  ): Promise<EditorResult> {
    const lines = splitLines(file.text);
    if (!Number.isInteger(line) || line < 0 || line > lines.length) {
      fail(
        `Invalid \`insert_line\` parameter: ${line}. It should be within the range of allowed values: [0, ${lines.length}]`,
      );
    }
    const inserted = newStr.split('\n');
    const nextLines = [...lines.slice(0, line), ...inserted, ...lines.slice(line)];
    const next = joinLines(nextLines, file.text.endsWith('\n') || file.text === '');
    const start = Math.max(0, line - SNIPPET_LINES);
    const snippet = catN(nextLines.slice(start, line + inserted.length + SNIPPET_LINES), start + 1);
    await this.save(path, bytes, file, next);
    return this.written(
      path,
      file.text,
      next,
      `The file ${path} has been edited. Here's the result of running \`cat -n\` on a snippet of ${path}:\n${snippet}\n${REVIEW_INSERT}`,
    );
  }

  private async undo(path: string): Promise<EditorResult> {
    const entry = this.history.pop(path);
    if (!entry) fail(`No edit history found for ${path}.`);
    const current = decodeText(await this.read(path)).text;
    if (entry.previous === null) {
      await this.files.remove(path);
      return {
        ...this.written(path, current, null, ''),
        text: `Last edit to ${path} undone successfully. The file did not exist before the edit and has been removed.`,
      };
    }
    await this.files.write(path, entry.previous);
    const restored = decodeText(entry.previous).text;
    return this.written(
      path,
      current,
      restored,
      `Last edit to ${path} undone successfully. Here's the result of running \`cat -n\` on ${path}:\n${catN(splitLines(restored))}`,
    );
  }

  private async save(path: string, previous: Buffer, file: TextFile, text: string): Promise<void> {
    await this.files.write(path, encodeText(file, text));
    this.history.push(path, previous);
  }

  private written(path: string, oldContent: string, newContent: string | null, text: string): EditorResult {
    return {
      text,
      isError: false,
      prevExist: true,
      oldContent,
      newContent,
      diff: createPatch(path, oldContent, newContent ?? ''),
    };
  }
}
