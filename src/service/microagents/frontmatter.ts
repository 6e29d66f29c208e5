import { parse } from 'yaml';

export interface Frontmatter {
  /** The YAML mapping between the `---` lines; empty when the text has no frontmatter. */
  data: Record<string, unknown>;
  body: string;
}

const OPENING = /^\uFEFF?---[ \t]*\r?\n/;
const CLOSING = /^---[ \t]*\r?$/m;

function parseYaml(text: string): unknown {
  try {
    return parse(text);
  } catch (error) {
    // The first line names the problem and its place (counted from the line after the opening ---).
    const message = error instanceof Error ? error.message.split('\n')[0] : String(error);
    throw new Error(`the frontmatter is not valid YAML: ${message}`, { cause: error });
  }
}

/** Splits a Markdown text into its YAML frontmatter and the trimmed body. Throws on malformed frontmatter. */
export function splitFrontmatter(text: string): Frontmatter {
  const opening = OPENING.exec(text);
  if (!opening) return { data: {}, body: text.replace(/^\uFEFF/, '').trim() };
  const rest = text.slice(opening[0].length);
  const closing = CLOSING.exec(rest);
  if (!closing) throw new Error('the frontmatter has no closing --- line');
  const data = parseYaml(rest.slice(0, closing.index));
  if (data !== null && (typeof data !== 'object' || Array.isArray(data))) {
    throw new Error('the frontmatter is not a YAML mapping');
  }
  return {
    data: (data ?? {}) as Record<string, unknown>,
    body: rest.slice(closing.index + closing[0].length).trim(),
  };
}
