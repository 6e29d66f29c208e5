/** The GIT_AUTHOR_* and GIT_COMMITTER_* variables of the commits made in a sandbox, from the settings. */
export function gitIdentity(settings: {
  git_user_name?: string | null;
  git_user_email?: string | null;
}): Record<string, string> {
  const name = settings.git_user_name ?? 'Dockhand Agent';
  const email = settings.git_user_email ?? 'agent@dockhand.invalid';
  return {
    GIT_AUTHOR_NAME: name,
    GIT_AUTHOR_EMAIL: email,
    GIT_COMMITTER_NAME: name,
    GIT_COMMITTER_EMAIL: email,
  };
}
