/**
 * The PS1 marker that ends every command: bash prints it from PROMPT_COMMAND, the session parses it.
 * Values are kept in variables that PS1 references, so a directory name is never expanded as code.
 */

const BEGIN = '###PS1JSON###';
const END = '###PS1END###';

/** The metadata bash reports in each prompt. */
export interface PromptMetadata {
  pid: number;
  exit_code: number;
  username: string;
  hostname: string;
  working_dir: string;
  py_interpreter_path: string;
}

export interface FoundMarker {
  /** Where the command output ends (before the prompt's leading newline). */
  outputEnd: number;
  /** Where the text after the marker starts. */
  end: number;
  metadata: PromptMetadata;
}

/** The rcfile for `bash --rcfile <it> -i`. DOCKHAND_START_DIR, when set, is the directory to start in. */
export function bashrc(): string {
  return `# Written by Dockhand: the user's settings, then the prompt marker Dockhand reads after each command.
if [ -f ~/.bashrc ]; then source ~/.bashrc; fi
set +H
set +o history
bind 'set enable-bracketed-paste off' 2>/dev/null
# An interactive pager would wait for keys that never come.
export PAGER=cat GIT_PAGER=cat
if [ -n "\${DOCKHAND_START_DIR:-}" ]; then cd -- "$DOCKHAND_START_DIR" 2>/dev/null; fi
unset DOCKHAND_START_DIR
__dockhand_json() {
  local s=\${2//\\\\/\\\\\\\\}
  s=\${s//\\"/\\\\\\"}
  s=\${s//$'\\n'/\\\\n}
  s=\${s//$'\\r'/\\\\r}
  s=\${s//$'\\t'/\\\\t}
  printf -v "$1" '%s' "$s"
}
__dockhand_prompt() {
  __dockhand_code=$?
  __dockhand_json __dockhand_cwd "$PWD"
  __dockhand_json __dockhand_py "$(command -v python || command -v python3)"
  PS1='\\n${BEGIN}\\n{"pid": $$, "exit_code": \${__dockhand_code}, "username": "\\u", "hostname": "\\h", "working_dir": "\${__dockhand_cwd}", "py_interpreter_path": "\${__dockhand_py}"}\\n${END}\\n'
  PS2=
}
PROMPT_COMMAND=__dockhand_prompt
`;
}

/**
 * Finds the first complete, valid marker at or after `from`; text that only looks like one is skipped.
 * Without one, says where the next scan must resume so that a marker split across chunks is still found.
 */
export function findPromptMarker(text: string, from: number): FoundMarker | { resumeAt: number } {
  let begin = text.indexOf(BEGIN, from);
  while (begin !== -1) {
    const finish = text.indexOf(END, begin + BEGIN.length);
    if (finish === -1) return { resumeAt: begin };
    const metadata = parseMetadata(text.slice(begin + BEGIN.length, finish));
    if (metadata) {
      const leadingNewline = /\r*\n$/.exec(text.slice(Math.max(0, begin - 8), begin));
      return {
        outputEnd: begin - (leadingNewline ? leadingNewline[0].length : 0),
        end: finish + END.length,
        metadata,
      };
    }
    begin = text.indexOf(BEGIN, begin + 1);
  }
  return { resumeAt: Math.max(from, text.length - BEGIN.length + 1) };
}

/**
 * Where text that is, or may still become, a marker begins (text.length when there is none), so that a
 * prompt arriving in pieces is never shown as output.
 */
export function heldMarkerStart(text: string): number {
  const begin = text.lastIndexOf(BEGIN);
  if (begin !== -1 && !text.includes(END, begin)) return begin;
  const lineStart = text.lastIndexOf('\n') + 1;
  const lastLine = text.slice(lineStart);
  return lastLine !== '' && BEGIN.startsWith(lastLine) ? lineStart : text.length;
}

function parseMetadata(json: string): PromptMetadata | null {
  let value: unknown;
  try {
    value = JSON.parse(json.trim());
  } catch {
    return null;
  }
  if (typeof value !== 'object' || value === null) return null;
  const record = value as Record<string, unknown>;
  const numbers = ['pid', 'exit_code'].every((key) => Number.isInteger(record[key]));
  const strings = ['username', 'hostname', 'working_dir', 'py_interpreter_path'].every(
    (key) => typeof record[key] === 'string',
  );
  return numbers && strings ? (record as unknown as PromptMetadata) : null;
}
