/** The names a process sandbox's commands take from the service's environment: where programs are, home, locale. */
const KEPT = /^(PATH|HOME|LANG|LANGUAGE|LC_[A-Z_]+|TZ)$/;

/**
 * The environment a process sandbox starts from: PATH, HOME and the locale of the service's environment (as
 * config.ts read it and passed it down),
 * nothing else. The service's own variables (its keys, the desktop session's bus, tool settings) never reach
 * commands the agent or a repository runs; the conversation adds its secrets on top.
 */
export function hostBaseEnvironment(env: NodeJS.ProcessEnv): Record<string, string> {
  return Object.fromEntries(
    Object.entries(env).filter(
      (entry): entry is [string, string] => KEPT.test(entry[0]) && entry[1] !== undefined,
    ),
  );
}
