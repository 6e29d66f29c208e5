import type { Microagent } from './microagent';

export const REPOSITORY_INSTRUCTIONS_MAX_CHARS = 32_000;
const CUT_NOTE = `\n[Repository instructions cut at ${REPOSITORY_INSTRUCTIONS_MAX_CHARS} characters.]`;

export interface RepositoryInstructions {
  /** The repo microagents' contents in load order, at most REPOSITORY_INSTRUCTIONS_MAX_CHARS long. */
  text: string;
  /** The length before the cut. */
  fullLength: number;
}

/** The always-on instructions: every repo microagent's content, joined, with the total capped. */
export function repositoryInstructions(microagents: Microagent[]): RepositoryInstructions {
  const full = microagents
    .filter((microagent) => microagent.type === 'repo' && microagent.content)
    .map((microagent) => microagent.content)
    .join('\n\n');
  const text =
    full.length > REPOSITORY_INSTRUCTIONS_MAX_CHARS
      ? full.slice(0, REPOSITORY_INSTRUCTIONS_MAX_CHARS - CUT_NOTE.length) + CUT_NOTE
      : full;
  return { text, fullLength: full.length };
}
