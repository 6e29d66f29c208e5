import bitbucket from './builtins/bitbucket.md?raw';
import docker from './builtins/docker.md?raw';
import github from './builtins/github.md?raw';
import gitlab from './builtins/gitlab.md?raw';
import npm from './builtins/npm.md?raw';
import security from './builtins/security.md?raw';
import type { MicroagentFile } from './parse-microagent';

const TEXTS: Record<string, string> = { github, gitlab, bitbucket, docker, npm, security };

/** The microagents that ship with Dockhand, as files to parse (source `builtin:<name>.md`). */
export const BUILTIN_MICROAGENT_FILES: MicroagentFile[] = Object.entries(TEXTS).map(([name, text]) => ({
  text,
  defaultName: name,
  source: `builtin:${name}.md`,
}));
