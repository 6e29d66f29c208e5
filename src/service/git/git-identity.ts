/** The GIT_AUTHOR_* and GIT_COMMITTER_* variables of commits made in a sandbox as `identity`. */
export function gitIdentityEnv(identity: { name: string; email: string }): Record<string, string> {
  return {
    GIT_AUTHOR_NAME: identity.name,
    GIT_AUTHOR_EMAIL: identity.email,
    GIT_COMMITTER_NAME: identity.name,
    GIT_COMMITTER_EMAIL: identity.email,
  };
}
