/** The HTTP status of a failed Docker API call, if it got that far. */
export function dockerStatusCode(error: unknown): number | undefined {
  const status = (error as { statusCode?: unknown } | null)?.statusCode;
  return typeof status === 'number' ? status : undefined;
}

/** The engine's own words for a failed call, without dockerode's "(HTTP code N) ..." prefix. */
export function dockerErrorText(error: unknown): string {
  const json = (error as { json?: { message?: unknown } | null } | null)?.json;
  if (json && typeof json.message === 'string') return json.message;
  const message = error instanceof Error ? error.message : String(error);
  return message.replace(/^\(HTTP code \d+\)\s*[^-]*-\s*/, '').trim();
}

/** Runs `call`, treating "no such object" (404) and "already in that state" (304) as success. */
export async function ignoringGone(call: () => Promise<unknown>): Promise<void> {
  try {
    await call();
  } catch (error) {
    const status = dockerStatusCode(error);
    if (status !== 404 && status !== 304) throw error;
  }
}
