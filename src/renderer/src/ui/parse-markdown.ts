/**
 * The small part of Markdown that agent and user messages use: paragraphs, headings, lists, fenced code,
 * `code`, **bold** and http(s) links. It yields a tree of plain strings, so nothing a message contains is
 * ever interpreted as HTML.
 */

export type Inline =
  | { kind: 'text'; text: string }
  | { kind: 'break' }
  | { kind: 'code'; text: string }
  | { kind: 'strong'; children: Inline[] }
  | { kind: 'link'; href: string; text: string };

export type Block =
  | { kind: 'paragraph'; children: Inline[] }
  | { kind: 'heading'; children: Inline[] }
  | { kind: 'code'; language: string | null; text: string }
  | { kind: 'list'; ordered: boolean; start: number; items: Inline[][] };

const FENCE = /^\s{0,3}(`{3,}|~{3,})\s*([\w+#.-]*)\s*$/;
const HEADING = /^\s{0,3}#{1,6}\s+(.*?)\s*#*\s*$/;
const BULLET = /^\s{0,3}[-*+]\s+(.*)$/;
const NUMBERED = /^\s{0,3}(\d{1,9})[.)]\s+(.*)$/;
const INLINE = /(`+)(.+?)\1(?!`)|\[([^\]\n]+)\]\(([^()\s]+)\)|\*\*([^*\n]+?)\*\*|(https?:\/\/[^\s<>()]+)/g;
const TRAILING_PUNCTUATION = /[.,;:!?'"]+$/;

/** Whether `href` may become a link: only absolute http and https addresses do. */
export function isSafeHref(href: string): boolean {
  try {
    const url = new URL(href);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

function pushText(into: Inline[], text: string): void {
  text.split('\n').forEach((line, index) => {
    if (index > 0) into.push({ kind: 'break' });
    if (line === '') return;
    const last = into.at(-1);
    if (last?.kind === 'text') last.text += line;
    else into.push({ kind: 'text', text: line });
  });
}

export function parseInline(text: string): Inline[] {
  const result: Inline[] = [];
  let from = 0;
  for (const match of text.matchAll(INLINE)) {
    const [whole, , code, linkText, linkHref, strong, bare] = match;
    let consumed = whole;
    let node: Inline | null = null;
    if (code !== undefined) {
      node = { kind: 'code', text: code.trim() === '' ? code : code.trim() };
    } else if (linkText !== undefined && linkHref !== undefined) {
      node = isSafeHref(linkHref) ? { kind: 'link', href: linkHref, text: linkText } : null;
    } else if (strong !== undefined) {
      node = { kind: 'strong', children: parseInline(strong) };
    } else if (bare !== undefined) {
      consumed = bare.replace(TRAILING_PUNCTUATION, '');
      node = isSafeHref(consumed) ? { kind: 'link', href: consumed, text: consumed } : null;
    }
    if (!node) continue;
    pushText(result, text.slice(from, match.index));
    result.push(node);
    from = match.index + consumed.length;
  }
  pushText(result, text.slice(from));
  return result;
}

interface ListDraft {
  ordered: boolean;
  start: number;
  items: string[];
}

/** Gathers lines into blocks: a paragraph or a list stays open until something else starts. */
class BlockBuilder {
  readonly blocks: Block[] = [];
  private paragraph: string[] = [];
  private list: ListDraft | null = null;

  line(text: string): void {
    if (this.list) {
      // A line under an item continues it.
      const { items } = this.list;
      items[items.length - 1] += `\n${text.trim()}`;
    } else {
      this.paragraph.push(text);
    }
  }

  item(ordered: boolean, start: number, text: string): void {
    this.endParagraph();
    if (!this.list || this.list.ordered !== ordered) {
      this.endList();
      this.list = { ordered, start, items: [] };
    }
    this.list.items.push(text);
  }

  block(block: Block): void {
    this.end();
    this.blocks.push(block);
  }

  end(): void {
    this.endParagraph();
    this.endList();
  }

  private endParagraph(): void {
    if (this.paragraph.length > 0) {
      this.blocks.push({ kind: 'paragraph', children: parseInline(this.paragraph.join('\n')) });
    }
    this.paragraph = [];
  }

  private endList(): void {
    if (this.list) this.blocks.push({ ...this.list, kind: 'list', items: this.list.items.map(parseInline) });
    this.list = null;
  }
}

export function parseMarkdown(source: string): Block[] {
  const builder = new BlockBuilder();
  const lines = source.replaceAll('\r\n', '\n').split('\n');
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index] ?? '';
    const fence = FENCE.exec(line);
    if (fence?.[1]) {
      const marker = fence[1];
      const body: string[] = [];
      for (index++; index < lines.length && !(lines[index] ?? '').trim().startsWith(marker); index++) {
        body.push(lines[index] ?? '');
      }
      builder.block({ kind: 'code', language: fence[2] || null, text: body.join('\n') });
      continue;
    }
    if (line.trim() === '') {
      builder.end();
      continue;
    }
    const heading = HEADING.exec(line);
    const bullet = BULLET.exec(line);
    const numbered = NUMBERED.exec(line);
    if (heading?.[1] !== undefined) builder.block({ kind: 'heading', children: parseInline(heading[1]) });
    else if (bullet?.[1] !== undefined) builder.item(false, 1, bullet[1]);
    else if (numbered?.[1] !== undefined && numbered[2] !== undefined) {
      builder.item(true, Number(numbered[1]), numbered[2]);
    } else builder.line(line);
  }
  builder.end();
  return builder.blocks;
}
