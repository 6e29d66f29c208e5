/** The bytes the session types into the terminal, and the scripts it runs beside the shell. */

const BASE64_LINE = 76;

export interface CommandInput {
  /** What to type at the prompt. */
  text: string;
  /** Matches the end of the terminal's echo of `text`; command output starts right after it. */
  echoEnd: RegExp;
}

/**
 * Writes the script to `<commandDir>/<id>.sh` through a here-document and sources it, as one line of
 * input, so that a multi-line script runs as one unit in the shell's own state. Base64 keeps tabs and
 * control characters away from readline.
 */
export function commandInput(id: string, script: string, commandDir: string): CommandInput {
  const file = shellQuote(`${commandDir}/${id}.sh`);
  const delimiter = `DOCKHAND_EOF_${id}`;
  const encoded = Buffer.from(`${script}\n`).toString('base64');
  const lines = encoded.match(new RegExp(`.{1,${BASE64_LINE}}`, 'g')) ?? [];
  const text = [`base64 -d >| ${file} <<'${delimiter}' && source ${file}`, ...lines, delimiter, ''].join(
    '\n',
  );
  return { text, echoEnd: new RegExp(`(?:^|\\n)${delimiter}\\r*\\n`) };
}

interface Key {
  bytes: string;
  name: string;
}

const KEYS: Record<string, Key> = {
  'C-c': { bytes: '\x03', name: 'CTRL+C' },
  'C-d': { bytes: '\x04', name: 'CTRL+D' },
  'C-z': { bytes: '\x1a', name: 'CTRL+Z' },
  'C-\\': { bytes: '\x1c', name: 'CTRL+\\' },
};

/** The raw key for `C-c`, `C-d`, `C-z` or `C-\` (any letter case), or null for text. */
export function controlKey(input: string): Key | null {
  const match = /^C-([a-z\\])$/i.exec(input);
  return match?.[1] ? (KEYS[`C-${match[1].toLowerCase()}`] ?? null) : null;
}

export const INTERRUPT_KEY = '\x03';

/** Sends `signal` to the terminal's foreground process group, read from /proc/<shellPid>/stat (tpgid). */
export function signalForegroundScript(shellPid: number, signal: 'INT' | 'KILL'): string {
  return [
    `stat=$(cat /proc/${shellPid}/stat) || exit 1`,
    'set -- ${stat##*) }',
    `[ "$6" -gt 0 ] && kill -s ${signal} -- "-$6"`,
  ].join('\n');
}

export function hangUpScript(shellPid: number): string {
  return `kill -s HUP ${shellPid} 2>/dev/null; true`;
}

export function shellQuote(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`;
}
