/** An error with a documented status and body; the error middleware sends it as is. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
    readonly headers: Record<string, string> = {},
  ) {
    super(typeof body === 'object' && body && 'detail' in body ? String(body.detail) : `HTTP ${status}`);
  }
}

/** `{"detail": text}` with the given status. */
export function httpError(status: number, detail: string, headers?: Record<string, string>): HttpError {
  return new HttpError(status, { detail }, headers);
}

/** Answers 507 `{"detail":"Not enough disk space in the data folder <dir>: free some space and retry."}`. */
export class DiskFull extends HttpError {
  constructor(dataDir: string) {
    super(507, { detail: `Not enough disk space in the data folder ${dataDir}: free some space and retry.` });
  }
}
