/**
 * On a CI machine (the `CI` environment variable set, as CI services set it) a missing
 * Docker engine, sandbox image or keychain is a broken machine, not a reason to skip: the tests that need
 * it would otherwise pass by skipping. Elsewhere the reason is returned and the caller skips with it.
 */
export function requiredInCi(what: string, reason: string | null): string | null {
  if (reason !== null && onCi())
    throw new Error(
      `${what} is required when CI is set, and ${reason}. Run the tests through scripts/test.sh, which provides it, or unset CI to let these tests skip.`,
    );
  return reason;
}

/** Whether this is a CI run: `CI` set to anything but empty, `0` or `false`. */
export function onCi(): boolean {
  const value = process.env.CI?.trim().toLowerCase();
  return value !== undefined && value !== '' && value !== '0' && value !== 'false';
}
