import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Every `§` citation in the code names a section that exists: `api-contract §14`, `agent-behaviour §3.1`
 * (also `agent-behaviour.md §3.1`, and lists such as `agent-behaviour §2.4, §2.5 and §2.6`) must match a
 * heading of docs/api-contract.md or docs/agent-behaviour.md. A bare `§N` names no document and is refused,
 * except in the docs themselves, where it means the same file, and after `RFC <number>`.
 */

const ROOT = path.resolve(import.meta.dirname, '..');
const DOCS = ['api-contract', 'agent-behaviour', 'architecture'] as const;
type Doc = (typeof DOCS)[number];
const SCANNED = ['src', 'test', 'e2e', 'docs'];
const EXTENSIONS = /\.(ts|tsx|js|mjs|md)$/;

const SECTION = String.raw`§\d+(?:\.\d+)*`;
const CITATION = new RegExp(
  String.raw`\b(${DOCS.join('|')})(?:\.md)? (${SECTION}(?:(?:,\s*|\s+and\s+|\s+or\s+|-)${SECTION})*)`,
  'g',
);
const BARE = new RegExp(String.raw`(RFC \d+ )?(${SECTION})`, 'g');

interface Citation {
  doc: Doc;
  section: string;
  where: string;
}

/** The section numbers of a doc's headings: `## 14. State machines` gives 14, `### 3.1 execute_bash` 3.1. */
function sectionsOf(doc: Doc): Set<string> {
  const text = readFileSync(path.join(ROOT, 'docs', `${doc}.md`), 'utf8');
  return new Set([...text.matchAll(/^#{2,4} (\d+(?:\.\d+)*)\.? /gm)].flatMap((m) => (m[1] ? [m[1]] : [])));
}

function scannedFiles(): string[] {
  return SCANNED.flatMap((dir) =>
    readdirSync(path.join(ROOT, dir), { recursive: true, encoding: 'utf8' })
      .filter((file) => EXTENSIONS.test(file) && !file.split(path.sep).includes('node_modules'))
      .map((file) => path.join(dir, file)),
  );
}

function lineOf(text: string, index: number): number {
  return text.slice(0, index).split('\n').length;
}

/** The citations of one file, and the bare `§`s that name no document. */
function citationsIn(file: string): { citations: Citation[]; unnamed: string[] } {
  const text = readFileSync(path.join(ROOT, file), 'utf8');
  const ownDoc = DOCS.find((doc) => file === path.join('docs', `${doc}.md`));
  const citations: Citation[] = [];
  const cite = (doc: Doc, sections: string, index: number) => {
    for (const [section] of sections.matchAll(new RegExp(SECTION, 'g')))
      citations.push({ doc, section: section.slice(1), where: `${file}:${lineOf(text, index)}` });
  };
  let rest = text;
  for (const match of text.matchAll(CITATION)) {
    cite(match[1] as Doc, match[2] ?? '', match.index);
    rest =
      rest.slice(0, match.index) + ' '.repeat(match[0].length) + rest.slice(match.index + match[0].length);
  }
  const unnamed: string[] = [];
  for (const match of rest.matchAll(BARE)) {
    const [, rfc, section = ''] = match;
    if (rfc) continue;
    if (ownDoc) cite(ownDoc, section, match.index);
    else unnamed.push(`${file}:${lineOf(text, match.index)}: ${section} names no document`);
  }
  return { citations, unnamed };
}

describe('section citations', () => {
  const files = scannedFiles();
  const found = files.map(citationsIn);
  const citations = found.flatMap((f) => f.citations);

  it('finds the citations of the code and the docs', () => {
    expect(citations.filter((c) => !c.where.startsWith('docs')).length).toBeGreaterThan(40);
  });

  it('names the document of every citation', () => {
    expect(found.flatMap((f) => f.unnamed)).toEqual([]);
  });

  it('resolves every citation to a heading of its document', () => {
    const sections = Object.fromEntries(DOCS.map((doc) => [doc, sectionsOf(doc)])) as Record<
      Doc,
      Set<string>
    >;
    const unresolved = citations
      .filter((c) => !sections[c.doc].has(c.section))
      .map((c) => `${c.where}: ${c.doc} §${c.section} has no heading in docs/${c.doc}.md`);
    expect(unresolved).toEqual([]);
  });
});
