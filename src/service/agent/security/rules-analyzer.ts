import { allCommands, baseName, parseShell, type SimpleCommand, stripPrefixes } from './shell-words';

/** OpenHands' security_risk values. */
export const Risk = { UNKNOWN: -1, LOW: 0, MEDIUM: 1, HIGH: 2 } as const;
export type Risk = (typeof Risk)[keyof typeof Risk];

export interface RiskAssessment {
  risk: Risk;
  /** Ids of the rules that fired (R1-R9), shown to the user. */
  rules: string[];
}

/** What the analyzer knows of a conversation's secrets. */
export interface SecretContext {
  names: string[];
  values: string[];
}

/** A side-effecting (or not) tool action as the analyzer sees it. */
export type AnalyzedAction =
  | { tool: 'execute_bash'; command: string }
  | { tool: 'str_replace_editor'; command: string; path: string }
  | { tool: 'mcp'; name: string; arguments: unknown; readOnlyHint?: boolean; destructiveHint?: boolean }
  | { tool: 'fetch'; url: string }
  | { tool: 'think' | 'finish' | 'task_tracker' };

const SAFE_ROOTS = ['/workspace', '/tmp', '/home/dockhand'];
const SHELLS_AND_INTERPRETERS = new Set([
  'sh',
  'bash',
  'zsh',
  'dash',
  'ksh',
  'python',
  'python3',
  'perl',
  'ruby',
  'node',
]);
const DOWNLOADERS = new Set(['curl', 'wget']);
const NETWORK_TOOLS = new Set(['curl', 'wget', 'nc', 'ncat', 'netcat', 'ssh', 'scp', 'sftp', 'rsync']);
const PRIVILEGE = new Set(['su', 'pkexec']);
const SYSTEM_DESTRUCTIVE = new Set([
  'shutdown',
  'reboot',
  'halt',
  'poweroff',
  'iptables',
  'ip6tables',
  'nft',
]);
const READ_ONLY = new Set([
  'ls', 'cat', 'head', 'tail', 'grep', 'egrep', 'rg', 'find', 'pwd', 'echo', 'printf', 'wc', 'sort', 'uniq', 'diff',
  'stat', 'file', 'which', 'type', 'tree', 'less', 'more', 'du', 'df', 'date', 'whoami', 'id', 'uname', 'true',
  'false', 'test', '[', 'sleep', 'cd', 'basename', 'dirname', 'realpath', 'readlink', 'cut', 'tr', 'jq', 'sed',
  'awk', 'ps', 'env', 'printenv', 'history',
]); // prettier-ignore
const READ_ONLY_GIT = new Set([
  'status',
  'log',
  'diff',
  'show',
  'branch',
  'remote',
  'rev-parse',
  'ls-files',
  'blame',
]);

function isInside(path: string, roots: string[]): boolean {
  return roots.some((root) => path === root || path.startsWith(`${root}/`));
}

/** True for the home folder itself and for absolute paths outside the sandbox's safe roots. */
function isOutsideSafeRoots(path: string): boolean {
  if (/^(~|\$\{?HOME\}?)\/?$/.test(path)) return true;
  if (!path.startsWith('/')) return false; // relative paths and ~/... stay in the workspace or the home folder
  return !isInside(path.replace(/\/+$/, '') || '/', SAFE_ROOTS);
}

function operands(args: string[]): string[] {
  return args.filter((a) => !a.startsWith('-'));
}

/** The command a `sudo`/`doas` line runs, and whether it was so wrapped. */
function effectiveCommand(words: string[]): { words: string[]; privileged: boolean } {
  const stripped = stripPrefixes(words);
  const [program, ...rest] = stripped;
  if (!program || !['sudo', 'doas'].includes(baseName(program)))
    return { words: stripped, privileged: false };
  let i = 0;
  while (i < rest.length && (rest[i] as string).startsWith('-'))
    i += /^-[ugCD]$/.test(rest[i] as string) ? 2 : 1;
  return { words: stripPrefixes(rest.slice(i)), privileged: true };
}

function flags(args: string[]): string {
  return args.filter((a) => /^-[A-Za-z]/.test(a)).join('');
}

function rmR1(program: string, args: string[]): boolean {
  if (program !== 'rm') return false;
  const f = flags(args);
  const recursiveOrForce = /[rRf]/.test(f) || args.some((a) => a === '--recursive' || a === '--force');
  return recursiveOrForce && operands(args).some(isOutsideSafeRoots);
}

function downloadIntoShellR2(text: string): boolean {
  const parsed = parseShell(text);
  for (const pipeline of parsed.pipelines) {
    const programs = pipeline.map((c) => baseName(effectiveCommand(c.words).words[0] ?? ''));
    const producerAt = programs.findIndex(
      (p, i) =>
        DOWNLOADERS.has(p) ||
        (p === 'base64' && /-d|--decode/.test((pipeline[i] as SimpleCommand).words.join(' '))),
    );
    if (producerAt !== -1 && programs.slice(producerAt + 1).some((p) => SHELLS_AND_INTERPRETERS.has(p)))
      return true;
    for (const command of pipeline) {
      const [program] = effectiveCommand(command.words).words;
      const runsSubstitution =
        program !== undefined &&
        (SHELLS_AND_INTERPRETERS.has(baseName(program)) || ['eval', 'source', '.'].includes(program));
      if (runsSubstitution && command.words.some((w) => /\$\((\s*)(curl|wget)\b/.test(w))) return true;
    }
  }
  return parsed.substitutions.some((s) => downloadIntoShellR2(s));
}

function privilegeR3(program: string, args: string[], writes: string[]): boolean {
  if (PRIVILEGE.has(program)) return true;
  if (program === 'chmod' && args.some((a) => /^[ugoa]*\+[rwxt]*s|^[4-7][0-7]{3}$/.test(a))) return true;
  const writesSystem = (p: string) => /^\/(etc|usr)(\/|$)/.test(p);
  if (writes.some(writesSystem)) return true;
  if (['tee', 'cp', 'mv', 'install', 'ln'].includes(program) && operands(args).slice(-1).some(writesSystem))
    return true;
  if (program === 'sed' && args.some((a) => a.startsWith('-i')) && args.some(writesSystem)) return true;
  return [program, ...args].some((a) => a.includes('docker.sock') || a === '--privileged');
}

function gitR4(program: string, args: string[]): boolean {
  if (program !== 'git') return false;
  const sub = args.find((a) => !a.startsWith('-'));
  if (sub === 'filter-branch' || sub === 'filter-repo') return true;
  if (sub !== 'push') return false;
  const rest = args.slice(args.indexOf('push') + 1);
  if (
    rest.some(
      (a) =>
        /^(-f|--force|--force-with-lease|--force-if-includes|--delete|-d|--mirror)$/.test(a) ||
        /^-[a-z]*f/.test(a),
    )
  ) {
    return true;
  }
  const refs = operands(rest).slice(1);
  return refs.some(
    (r) => r.startsWith('+') || r.startsWith(':') || /(^|:)(refs\/heads\/)?(main|master)$/.test(r),
  );
}

function secretReference(word: string, secrets: SecretContext): boolean {
  const names = [...secrets.names];
  const referenced = [...word.matchAll(/\$\{?([A-Za-z_][A-Za-z0-9_]*)/g)].map((m) => m[1] as string);
  if (referenced.some((n) => names.includes(n) || /_TOKEN$|_KEY$|_SECRET$/.test(n))) return true;
  return /\/proc\/[^/\s]+\/environ|~\/\.ssh|\/\.ssh\/|(^|\/)\.env$/.test(word);
}

function exfiltrationR5(text: string, commands: SimpleCommand[], secrets: SecretContext): boolean {
  if (secrets.values.some((v) => v.length >= 4 && text.includes(v))) return true;
  const programs = commands.map((c) => baseName(effectiveCommand(c.words).words[0] ?? ''));
  if (!programs.some((p) => NETWORK_TOOLS.has(p))) return false;
  const printsEnvironment = programs.some((p) => p === 'env' || p === 'printenv');
  return printsEnvironment || commands.some((c) => c.words.some((w) => secretReference(w, secrets)));
}

function publishR6(program: string, args: string[]): boolean {
  const [a, b] = operands(args);
  return (
    (['npm', 'yarn', 'pnpm'].includes(program) && a === 'publish') ||
    (program === 'twine' && a === 'upload') ||
    (program === 'cargo' && a === 'publish') ||
    (program === 'docker' && a === 'push') ||
    (program === 'gh' &&
      ((a === 'release' && b === 'create') ||
        (a === 'pr' && b === 'merge') ||
        (a === 'repo' && b === 'delete')))
  );
}

function systemR7(program: string, args: string[]): boolean {
  if (program.startsWith('mkfs') || SYSTEM_DESTRUCTIVE.has(program)) return true;
  if (program === 'dd' && args.some((a) => a.startsWith('of=/dev/'))) return true;
  const recursive = /R/.test(flags(args)) || args.includes('--recursive');
  return (
    (program === 'chmod' || program === 'chown') &&
    recursive &&
    operands(args).slice(1).some(isOutsideSafeRoots)
  );
}

const FORK_BOMB = /:\(\)\s*\{\s*:\s*\|\s*:\s*&\s*\}\s*;\s*:/;

function isReadOnly(command: SimpleCommand): boolean {
  const [program, ...args] = stripPrefixes(command.words);
  if (command.writes.length) return false;
  if (!program) return true;
  const name = baseName(program);
  if (name === 'git') return READ_ONLY_GIT.has(args.find((a) => !a.startsWith('-')) ?? '');
  if (name === 'sed') return !args.some((a) => a.startsWith('-i'));
  return READ_ONLY.has(name);
}

function analyzeBash(text: string, secrets: SecretContext): RiskAssessment {
  const commands = allCommands(text);
  const fired = new Set<string>();
  for (const command of commands) {
    const effective = effectiveCommand(command.words);
    const [program = '', ...args] = effective.words;
    const name = baseName(program);
    if (rmR1(name, args)) fired.add('R1');
    if (effective.privileged || privilegeR3(name, args, command.writes)) fired.add('R3');
    if (gitR4(name, args)) fired.add('R4');
    if (publishR6(name, args)) fired.add('R6');
    if (systemR7(name, args)) fired.add('R7');
  }
  if (downloadIntoShellR2(text)) fired.add('R2');
  if (exfiltrationR5(text, commands, secrets)) fired.add('R5');
  if (FORK_BOMB.test(text)) fired.add('R7');
  const rules = [...fired].sort();
  if (rules.length) return { risk: Risk.HIGH, rules };
  return { risk: commands.every(isReadOnly) ? Risk.LOW : Risk.MEDIUM, rules: [] };
}

const EDITOR_WRITES = new Set(['create', 'str_replace', 'insert', 'undo_edit']);

function analyzeEdit(command: string, path: string): RiskAssessment {
  if (!EDITOR_WRITES.has(command)) return { risk: Risk.LOW, rules: [] };
  const sensitive =
    !isInside(path, ['/workspace', '/tmp']) ||
    /\/\.git\//.test(path) ||
    /\/\.bashrc$/.test(path) ||
    /\/\.ssh(\/|$)/.test(path);
  return sensitive ? { risk: Risk.HIGH, rules: ['R8'] } : { risk: Risk.MEDIUM, rules: [] };
}

function containsSecretValue(value: unknown, secrets: SecretContext): boolean {
  const text = typeof value === 'string' ? value : JSON.stringify(value ?? null);
  return secrets.values.some((v) => v.length >= 4 && text.includes(v));
}

/**
 * The rule-based security analyzer: the risk of an action and the rules (R1-R9) behind it.
 * Tool floors apply: editor view LOW and writes MEDIUM; MCP readOnlyHint LOW, destructiveHint HIGH, else
 * MEDIUM; fetch MEDIUM; think, finish and task_tracker LOW.
 */
export function analyzeAction(action: AnalyzedAction, secrets: SecretContext): RiskAssessment {
  switch (action.tool) {
    case 'execute_bash':
      return analyzeBash(action.command, secrets);
    case 'str_replace_editor':
      return analyzeEdit(action.command, action.path);
    case 'mcp': {
      if (action.destructiveHint || containsSecretValue(action.arguments, secrets))
        return { risk: Risk.HIGH, rules: ['R9'] };
      return { risk: action.readOnlyHint ? Risk.LOW : Risk.MEDIUM, rules: [] };
    }
    case 'fetch':
      return containsSecretValue(action.url, secrets)
        ? { risk: Risk.HIGH, rules: ['R9'] }
        : { risk: Risk.MEDIUM, rules: [] };
    default:
      return { risk: Risk.LOW, rules: [] };
  }
}
