import { mkdtempSync, rmSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MAX_EDIT_FIELD_CHARS, strReplaceEditorTool } from '../../src/service/agent/tools/str-replace-editor';
import { EditHistory } from '../../src/service/agent/tools/str-replace-editor/edit-history';
import { Editor } from '../../src/service/agent/tools/str-replace-editor/editor';
import type { ToolContext } from '../../src/service/agent/tools/tool';
import { LocalSandboxFiles } from '../../src/service/sandbox/files/local-files';
import { openDatabase, type Db } from '../../src/service/storage/database';

const NOTE = /\n\[\.\.\. \d+ more characters not shown \.\.\.\]$/;

describe('an edit of a large file does not copy the file into its event', () => {
  let root: string;
  let db: Db;
  let context: ToolContext;

  beforeEach(() => {
    root = mkdtempSync(path.join(os.tmpdir(), 'dockhand-edit-events-'));
    db = openDatabase(path.join(root, '.data'));
    const files = Object.assign(new LocalSandboxFiles(), { remove: (p: string) => rm(p, { force: true }) });
    context = { editor: new Editor(files, new EditHistory(db, 'c1'), () => root) } as ToolContext;
  });
  afterEach(() => {
    db.close();
    rmSync(root, { recursive: true, force: true });
  });

  const run = (args: Parameters<NonNullable<typeof strReplaceEditorTool.execute>>[0]) => {
    if (!strReplaceEditorTool.execute) throw new Error('str_replace_editor has no execute');
    return strReplaceEditorTool.execute(args, context).then((result) => {
      if (result.kind !== 'edit_result') throw new Error(`not an edit's result: ${result.kind}`);
      return result;
    });
  };
  const expectCapped = (value: unknown) => {
    expect(typeof value).toBe('string');
    expect((value as string).length).toBeLessThan(MAX_EDIT_FIELD_CHARS + 100);
    expect(value).toMatch(NOTE);
  };

  it('caps old_content, new_content and diff, each with a note of what was left out', async () => {
    const file = path.join(root, 'big.txt');
    const text = `header\n${'line of a large generated file\n'.repeat(5_000)}`; // 155 000 characters
    const created = await run({ command: 'create', path: file, file_text: text });
    expect(created.oldContent).toBeNull();
    expectCapped(created.newContent);
    expectCapped(created.diff);
    const edited = await run({
      command: 'str_replace',
      path: file,
      old_str: 'header\n',
      new_str: 'changed header\n',
    });
    expectCapped(edited.oldContent);
    expectCapped(edited.newContent);
    expect((edited.newContent as string).startsWith('changed header\nline of')).toBe(true);
    expect(JSON.stringify(edited).length).toBeLessThan(3 * MAX_EDIT_FIELD_CHARS);
  });

  it('keeps small edits whole', async () => {
    const file = path.join(root, 'small.txt');
    await run({ command: 'create', path: file, file_text: 'a\n' });
    const edited = await run({ command: 'str_replace', path: file, old_str: 'a', new_str: 'b' });
    expect(edited).toMatchObject({ oldContent: 'a\n', newContent: 'b\n' });
    expect(edited.diff).toContain('-a\n+b');
  });
});
