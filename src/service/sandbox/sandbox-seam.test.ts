import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const SERVICE = path.resolve(__dirname, '..');
const SANDBOX = __dirname;

/** What only `sandbox/` may know: which provider runs a sandbox, and Docker's client. */
const PROVIDER_KNOWLEDGE: { what: string; pattern: RegExp }[] = [
  {
    what: 'a comparison with a provider kind',
    pattern: /\b(kind|provider|sandboxKind)\b[\w.?]*\s*[!=]==?\s*'(docker|process)'/,
  },
  {
    what: 'a comparison with a provider kind',
    pattern: /'(docker|process)'\s*[!=]==?\s*[\w.?]*\b(kind|provider)\b/,
  },
  { what: 'a switch on a provider kind', pattern: /\bcase\s+'(docker|process)'\s*:/ },
  {
    what: "a provider's type",
    pattern: /\b(SandboxProviderKind|DockerTarget|ProcessTarget|SandboxTarget)\b/,
  },
  { what: 'dockerode', pattern: /from 'dockerode'/ },
];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return file === SANDBOX ? [] : sourceFiles(file);
    return /\.tsx?$/.test(entry.name) ? [file] : [];
  });
}

function findings(text: string): string[] {
  return PROVIDER_KNOWLEDGE.filter(({ pattern }) => pattern.test(text)).map(({ what }) => what);
}

describe('the sandbox seam', () => {
  it('recognises what would cross it', () => {
    expect(findings("if (target.kind === 'docker') {")).toEqual(['a comparison with a provider kind']);
    expect(findings("return record.provider !== 'process';")).toEqual(['a comparison with a provider kind']);
    expect(findings("    case 'process':")).toEqual(['a switch on a provider kind']);
    expect(findings("import type Docker from 'dockerode';")).toEqual(['dockerode']);
    expect(findings("const image = 'docker';")).toEqual([]);
  });

  it('is crossed by nothing outside src/service/sandbox/', () => {
    const crossings = sourceFiles(SERVICE).flatMap((file) =>
      findings(readFileSync(file, 'utf8')).map((what) => `${path.relative(SERVICE, file)}: ${what}`),
    );
    expect(crossings).toEqual([]);
  });
});
