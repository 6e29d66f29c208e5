import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync, mkdirSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LocalSandboxFiles } from '../../../sandbox/files/local-files';
import { openDatabase, type Db } from '../../../storage/database';
import { EditHistory } from './edit-history';
import { Editor } from './editor';

describe('str_replace_editor', () => {
  let root: string;
  let db: Db;
  let editor: Editor;
  const files = Object.assign(new LocalSandboxFiles(), { remove: (p: string) => rm(p, { force: true }) });
  const at = (name: string) => path.join(root, name);

  beforeEach(() => {
    root = mkdtempSync(path.join(os.tmpdir(), 'dockhand-editor-'));
    db = openDatabase(path.join(root, '.data'));
    editor = new Editor(files, new EditHistory(db, 'c1'), () => root);
  });

  afterEach(() => {
    db.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('creates, replaces, views and undoes twice with the exact texts', async () => {
    const file = at('src/app.py');
    expect((await editor.run({ command: 'create', path: file, file_text: 'a = 1\nb = 2\n' })).text).toBe(
      `File created successfully at: ${file}`,
    );
    const replaced = await editor.run({
      command: 'str_replace',
      path: file,
      old_str: 'b = 2',
      new_str: 'b = 3',
    });
    expect(replaced.text).toBe(
      `The file ${file} has been edited. Here's the result of running \`cat -n\` on a snippet of ${file}:\n` +
        '     1\ta = 1\n     2\tb = 3\n' +
        'Review the changes and make sure they are as expected. Edit the file again if necessary.',
    );
    expect(readFileSync(file, 'utf8')).toBe('a = 1\nb = 3\n');
    expect(replaced.diff).toContain('-b = 2\n+b = 3');
    expect((await editor.run({ command: 'view', path: file })).text).toBe(
      `Here's the result of running \`cat -n\` on ${file}:\n     1\ta = 1\n     2\tb = 3`,
    );
    const undone = await editor.run({ command: 'undo_edit', path: file });
    expect(undone.text).toBe(
      `Last edit to ${file} undone successfully. Here's the result of running \`cat -n\` on ${file}:\n     1\ta = 1\n     2\tb = 2`,
    );
    expect(readFileSync(file, 'utf8')).toBe('a = 1\nb = 2\n');
    expect((await editor.run({ command: 'undo_edit', path: file })).text).toBe(
      `Last edit to ${file} undone successfully. The file did not exist before the edit and has been removed.`,
    );
    expect(existsSync(file)).toBe(false);
  });

  it('inserts after a line and keeps CRLF line ends', async () => {
    const file = at('win.txt');
    writeFileSync(file, 'one\r\ntwo\r\n');
    const result = await editor.run({
      command: 'insert',
      path: file,
      insert_line: 1,
      new_str: 'one and a half',
    });
    expect(result.text).toContain('     2\tone and a half');
    expect(result.text).toContain('(correct indentation, no duplicate lines, etc)');
    expect(readFileSync(file, 'utf8')).toBe('one\r\none and a half\r\ntwo\r\n');
  });

  it('answers the documented errors in order', async () => {
    writeFileSync(at('x.txt'), 'same\nsame\n');
    writeFileSync(at('bin.dat'), Buffer.from([1, 0, 2]));
    const error = async (args: Parameters<Editor['run']>[0]) => (await editor.run(args)).text;
    expect(await error({ command: 'view', path: 'x.txt' })).toBe(
      `ERROR:\nInvalid \`path\` parameter: x.txt. The path should be an absolute path, starting with \`/\`. Maybe you meant ${at('x.txt')}?`,
    );
    expect(await error({ command: 'create', path: at('x.txt'), file_text: '' })).toBe(
      `ERROR:\nFile already exists at: ${at('x.txt')}. Cannot overwrite files using command \`create\`.`,
    );
    expect(await error({ command: 'view', path: at('nope') })).toBe(
      `ERROR:\nThe path ${at('nope')} does not exist. Please provide a valid path.`,
    );
    mkdirSync(at('dir'));
    expect(await error({ command: 'insert', path: at('dir'), insert_line: 0, new_str: 'x' })).toBe(
      `ERROR:\nThe path ${at('dir')} is a directory and only the \`view\` command can be used on directories.`,
    );
    expect(await error({ command: 'view', path: at('bin.dat') })).toBe(
      'ERROR:\nFile appears to be binary and this file type cannot be read or edited by this tool.',
    );
    expect(await error({ command: 'str_replace', path: at('x.txt') })).toBe(
      'ERROR:\nParameter `old_str` is required for command: str_replace.',
    );
    expect(await error({ command: 'str_replace', path: at('x.txt'), old_str: 'same', new_str: 'diff' })).toBe(
      'ERROR:\nNo replacement was performed. Multiple occurrences of old_str `same` in lines [1, 2]. Please ensure it is unique.',
    );
    expect(await error({ command: 'str_replace', path: at('x.txt'), old_str: 'gone', new_str: 'x' })).toBe(
      `ERROR:\nNo replacement was performed, old_str \`gone\` did not appear verbatim in ${at('x.txt')}.`,
    );
    expect(await error({ command: 'view', path: at('x.txt'), view_range: [3, 4] })).toBe(
      'ERROR:\nInvalid `view_range` parameter: [3, 4]. Its first element `3` should be within the range of lines of the file: [1, 2].',
    );
    expect(await error({ command: 'insert', path: at('x.txt'), insert_line: 5, new_str: 'x' })).toBe(
      'ERROR:\nInvalid `insert_line` parameter: 5. It should be within the range of allowed values: [0, 2]',
    );
    expect(await error({ command: 'undo_edit', path: at('x.txt') })).toBe(
      `ERROR:\nNo edit history found for ${at('x.txt')}.`,
    );
  });

  it('clamps a view range past the end with a note, and lists directories two levels deep', async () => {
    writeFileSync(at('three.txt'), '1\n2\n3\n');
    expect((await editor.run({ command: 'view', path: at('three.txt'), view_range: [2, 9] })).text).toBe(
      `Here's the result of running \`cat -n\` on ${at('three.txt')}:\n     2\t2\n     3\t3\n` +
        "NOTE: We only show up to 3 since there're only 3 lines in this file.",
    );
    mkdirSync(at('pkg/sub/deep'), { recursive: true });
    writeFileSync(at('pkg/a.ts'), '');
    writeFileSync(at('pkg/.hidden'), '');
    const listing = (await editor.run({ command: 'view', path: at('pkg') })).text;
    expect(listing).toBe(
      `Here's the files and directories up to 2 levels deep in ${at('pkg')}, excluding hidden items:\n` +
        `${at('pkg/a.ts')}\n${at('pkg/sub')}/\n${at('pkg/sub/deep')}/\n\n` +
        `1 hidden files/directories in this directory are excluded. You can use 'ls -la ${at('pkg')}' to see them.`,
    );
  });

  it('refuses a file over 10 MB, also one that grows past it after it was measured', async () => {
    const big = at('big.txt');
    writeFileSync(big, Buffer.alloc(10 * 1024 * 1024 + 1, 'a'));
    expect((await editor.run({ command: 'view', path: big })).text).toBe(
      'ERROR:\nFile is too large (10.0 MB). Maximum allowed size is 10 MB.',
    );
    const grows = at('grows.txt');
    writeFileSync(grows, 'small\n');
    const racing = new Editor(
      {
        read: (p, options) => files.read(p, options),
        write: (p, data) => files.write(p, data),
        list: (p) => files.list(p),
        remove: (p) => files.remove(p),
        stat: async (p) => {
          const info = await files.stat(p);
          if (p === grows) writeFileSync(grows, Buffer.alloc(11 * 1024 * 1024, 'a'));
          return info;
        },
      },
      new EditHistory(db, 'c1'),
      () => root,
    );
    expect(await racing.run({ command: 'view', path: grows })).toEqual({
      text: 'ERROR:\nFile is too large. Maximum allowed size is 10 MB.',
      isError: true,
    });
  });
});
