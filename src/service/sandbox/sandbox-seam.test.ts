import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const SERVICE = path.resolve(__dirname, '..');
const SANDBOX = __dirname;

interface Rule {
  what: string;
  pattern: RegExp;
  /** Where the rule holds (relative to src/service): everywhere but where what it forbids belongs. */
  appliesTo: (file: string) => boolean;
}

const outside =
  (...folders: string[]) =>
  (file: string) =>
    !folders.some((folder) => file === folder || file.startsWith(`${folder}/`));
const notATest = (file: string) => !/\.test\.tsx?$/.test(file);

/** What only `sandbox/` may know: which provider runs a sandbox. */
const PROVIDER_KNOWLEDGE: Rule[] = [
  {
    what: 'a comparison with a provider kind',
    pattern: /\b(kind|provider|sandboxKind)\b[\w.?]*\s*[!=]==?\s*'(docker|process)'/,
    appliesTo: outside('sandbox'),
  },
  {
    what: 'a comparison with a provider kind',
    pattern: /'(docker|process)'\s*[!=]==?\s*[\w.?]*\b(kind|provider)\b/,
    appliesTo: outside('sandbox'),
  },
  {
    what: 'a switch on a provider kind',
    pattern: /\bcase\s+'(docker|process)'\s*:/,
    appliesTo: outside('sandbox'),
  },
  {
    what: "a provider's type",
    pattern: /\b(SandboxProviderKind|DockerTarget|ProcessTarget|SandboxTarget)\b/,
    appliesTo: outside('sandbox'),
  },
];

/** Dependencies that would leak past their owner: each is built once, by the composition root or its folder. */
const DEPENDENCY_LEAKS: Rule[] = [
  { what: 'dockerode', pattern: /from 'dockerode'/, appliesTo: outside('sandbox') },
  {
    what: 'the warm pool outside the Docker provider',
    pattern: /\bWarmPool\b|from '[./]*warm-pool(-plan)?'/,
    appliesTo: outside('sandbox/docker'),
  },
  {
    what: 'the database or Docker through the context',
    pattern: /\b(ctx|context)\??\.(db|docker)\b/,
    appliesTo: () => true,
  },
  {
    what: 'the database or Docker through the context',
    pattern: /^\s*(db|docker)\??:|\b(Db|DockerConnection)\b/m,
    appliesTo: (file) => file === 'context.ts',
  },
  {
    what: 'a collaborator registered by a setter after construction',
    pattern: /\.set[A-Z]\w*\(\s*(\{|\(|\w+\s*=>)/,
    appliesTo: () => true,
  },
  {
    what: 'a shared collaborator built outside the composition root',
    pattern: /\bnew (WorkspaceAccess|LocalRepositoryStore|AgentStateStore|EditHistory)\b/,
    appliesTo: (file) => file !== 'index.ts' && notATest(file),
  },
];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(file);
    return /\.tsx?$/.test(entry.name) && file !== __filename ? [file] : [];
  });
}

function findings(text: string, file: string, rules: Rule[]): string[] {
  return rules
    .filter(({ pattern, appliesTo }) => appliesTo(file) && pattern.test(text))
    .map(({ what }) => what);
}

function crossings(rules: Rule[]): string[] {
  return sourceFiles(SERVICE).flatMap((file) => {
    const relative = path.relative(SERVICE, file);
    return findings(readFileSync(file, 'utf8'), relative, rules).map((what) => `${relative}: ${what}`);
  });
}

describe('the sandbox seam', () => {
  it('recognises what would cross it', () => {
    const found = (text: string) => findings(text, 'routes/x.ts', PROVIDER_KNOWLEDGE);
    expect(found("if (target.kind === 'docker') {")).toEqual(['a comparison with a provider kind']);
    expect(found("return record.provider !== 'process';")).toEqual(['a comparison with a provider kind']);
    expect(found("    case 'process':")).toEqual(['a switch on a provider kind']);
    expect(found("const image = 'docker';")).toEqual([]);
    expect(
      findings("case 'docker':", path.relative(SERVICE, path.join(SANDBOX, 'x.ts')), PROVIDER_KNOWLEDGE),
    ).toEqual([]);
  });

  it('is crossed by nothing outside src/service/sandbox/', () => {
    expect(crossings(PROVIDER_KNOWLEDGE)).toEqual([]);
  });
});

describe('narrow dependencies', () => {
  it('recognises a leak', () => {
    const found = (text: string, file = 'conversations/x.ts') => findings(text, file, DEPENDENCY_LEAKS);
    expect(found("import type Docker from 'dockerode';")).toEqual(['dockerode']);
    expect(found("import type Docker from 'dockerode';", 'sandbox/docker/x.ts')).toEqual([]);
    expect(found("import { WarmPool } from './docker/warm-pool';", 'sandbox/sandbox-layer.ts')).toEqual([
      'the warm pool outside the Docker provider',
    ]);
    expect(found('new AgentStateStore(ctx.db)')).toEqual([
      'the database or Docker through the context',
      'a shared collaborator built outside the composition root',
    ]);
    expect(found('await ctx.docker.check()', 'routes/server.ts')).toEqual([
      'the database or Docker through the context',
    ]);
    expect(found('  db: Db;', 'context.ts')).toEqual(['the database or Docker through the context']);
    expect(found('  docker: DockerConnection;', 'context.ts')).toEqual([
      'the database or Docker through the context',
    ]);
    expect(found('  private readonly db: Db,', 'events/event-log.ts')).toEqual([]);
    expect(found('ctx.sandboxes.setUsers({ isIdle })')).toEqual([
      'a collaborator registered by a setter after construction',
    ]);
    expect(found('context.sandboxes.setAgentServers((id) => urls(id));')).toEqual([
      'a collaborator registered by a setter after construction',
    ]);
    expect(found("this.setState('running');")).toEqual([]);
    expect(found('const workspaces = new WorkspaceAccess(ctx, conversations);')).toEqual([
      'a shared collaborator built outside the composition root',
    ]);
    expect(found('new LocalRepositoryStore(dataDir)', 'index.ts')).toEqual([]);
  });

  it('finds none in src/service/', () => {
    expect(crossings(DEPENDENCY_LEAKS)).toEqual([]);
  });
});
