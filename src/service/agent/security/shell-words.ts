/**
 * A small shell parser for risk analysis: enough to see which programs a command line runs with which
 * arguments, where pipes go, and what runs inside `$(…)`, backticks and `<(…)`. It does not execute or
 * expand anything; unbalanced quotes simply end at the end of the text.
 */

/** One simple command: its words after quote removal, and the redirect targets it writes to. */
export interface SimpleCommand {
  words: string[];
  writes: string[];
}

export interface ParsedLine {
  /** Pipelines in order; each is the list of commands joined by `|`. */
  pipelines: SimpleCommand[][];
  /** Text of every `$(…)`, backtick and `<(…)` substitution, outermost first. */
  substitutions: string[];
}

const SEPARATORS = [';', '&&', '||', '&', '\n'];

/** Reads a balanced `(...)` starting after the opening parenthesis; returns its text and the end index. */
function readParenthesised(text: string, start: number): [string, number] {
  let depth = 1;
  let i = start;
  let quote: string | null = null;
  while (i < text.length) {
    const c = text[i];
    if (quote) {
      if (c === '\\' && quote === '"') i++;
      else if (c === quote) quote = null;
    } else if (c === "'" || c === '"') quote = c;
    else if (c === '(') depth++;
    else if (c === ')' && --depth === 0) return [text.slice(start, i), i + 1];
    i++;
  }
  return [text.slice(start), text.length];
}

export function parseShell(text: string): ParsedLine {
  const pipelines: SimpleCommand[][] = [];
  const substitutions: string[] = [];
  let pipeline: SimpleCommand[] = [];
  let command: SimpleCommand = { words: [], writes: [] };
  let word = '';
  let inWord = false;
  let quote: string | null = null;
  let redirect = false;

  const endWord = () => {
    if (!inWord) return;
    if (redirect) command.writes.push(word);
    else command.words.push(word);
    word = '';
    inWord = false;
    redirect = false;
  };
  const endCommand = () => {
    endWord();
    if (command.words.length || command.writes.length) pipeline.push(command);
    command = { words: [], writes: [] };
  };
  const endPipeline = () => {
    endCommand();
    if (pipeline.length) pipelines.push(pipeline);
    pipeline = [];
  };

  let i = 0;
  while (i < text.length) {
    const c = text[i] as string;
    if (quote === "'") {
      if (c === "'") quote = null;
      else word += c;
      i++;
      continue;
    }
    if (c === '\\' && i + 1 < text.length) {
      word += text[i + 1];
      inWord = true;
      i += 2;
      continue;
    }
    if ((c === '$' || c === '<' || c === '>') && text[i + 1] === '(') {
      const [inner, end] = readParenthesised(text, i + 2);
      substitutions.push(inner);
      word += `$(${inner})`;
      inWord = true;
      i = end;
      continue;
    }
    if (c === '`') {
      const end = text.indexOf('`', i + 1);
      const inner = text.slice(i + 1, end === -1 ? text.length : end);
      substitutions.push(inner);
      word += inner;
      inWord = true;
      i = end === -1 ? text.length : end + 1;
      continue;
    }
    if (quote === '"') {
      if (c === '"') quote = null;
      else word += c;
      i++;
      continue;
    }
    if (c === "'" || c === '"') {
      quote = c;
      inWord = true;
      i++;
      continue;
    }
    const separator = SEPARATORS.find((s) => text.startsWith(s, i));
    if (separator) {
      endPipeline();
      i += separator.length;
      continue;
    }
    if (c === '|') {
      endCommand();
      i += text[i + 1] === '&' ? 2 : 1;
      continue;
    }
    if (c === '>') {
      endWord();
      redirect = !text.startsWith('>&', i);
      i += text[i + 1] === '>' || text[i + 1] === '&' || text[i + 1] === '|' ? 2 : 1;
      continue;
    }
    if (c === '<') {
      endWord();
      i++;
      continue;
    }
    if (c === ' ' || c === '\t') {
      endWord();
      i++;
      continue;
    }
    word += c;
    inWord = true;
    i++;
  }
  endPipeline();
  return { pipelines, substitutions };
}

/** Every simple command of a line, including those inside substitutions, `bash -c`, `sh -c` and `eval` (one level). */
export function allCommands(text: string, depth = 0): SimpleCommand[] {
  const parsed = parseShell(text);
  const commands = parsed.pipelines.flat();
  const nested = parsed.substitutions.flatMap((s) => allCommands(s, depth));
  if (depth > 0) return [...commands, ...nested];
  const inner = commands.flatMap((c) => {
    const script = innerScript(c.words);
    return script === null ? [] : allCommands(script, depth + 1);
  });
  return [...commands, ...nested, ...inner];
}

const SHELLS = new Set(['bash', 'sh', 'zsh', 'dash', 'ksh']);

/** The script a command runs through a shell: `bash -c S`, `sh -c S`, `eval S…`. */
export function innerScript(words: string[]): string | null {
  const [program, ...args] = stripPrefixes(words);
  if (!program) return null;
  if (program === 'eval') return args.join(' ');
  if (SHELLS.has(baseName(program))) {
    const flag = args.findIndex((a) => /^-[a-z]*c[a-z]*$/.test(a));
    return flag !== -1 && args[flag + 1] !== undefined ? (args[flag + 1] as string) : null;
  }
  return null;
}

export function baseName(program: string): string {
  return program.slice(program.lastIndexOf('/') + 1);
}

const PREFIX_COMMANDS = new Set([
  'env',
  'nohup',
  'time',
  'nice',
  'timeout',
  'command',
  'exec',
  'xargs',
  'stdbuf',
]);

/** The words from the program on: skips `VAR=value` assignments and wrappers such as `nohup` or `timeout 10`. */
export function stripPrefixes(words: string[]): string[] {
  let i = 0;
  while (i < words.length) {
    const w = words[i] as string;
    if (/^[A-Za-z_][A-Za-z0-9_]*=/.test(w)) i++;
    else if (PREFIX_COMMANDS.has(w) && i + 1 < words.length) {
      i++;
      while (i < words.length && (/^-/.test(words[i] as string) || /^\d+[smhd]?$/.test(words[i] as string)))
        i++;
    } else break;
  }
  return words.slice(i);
}
