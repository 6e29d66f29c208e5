/** The custom scheme the built renderer is served from; registered as standard and secure. */
export const APP_SCHEME = 'app';
export const APP_HOST = 'dockhand';
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`;
export const APP_ENTRY_URL = `${APP_ORIGIN}/index.html`;

/**
 * `scheme://host[:port]` of a URL, or null when it does not parse. WHATWG URL reports the origin of
 * non-special schemes such as app: as "null", so the origin is built from the parts instead.
 */
export function originOf(url: string): string | null {
  try {
    const parsed = new URL(url);
    return parsed.host ? `${parsed.protocol}//${parsed.host}` : null;
  } catch {
    return null;
  }
}

export function isHttpsUrl(url: string): boolean {
  try {
    return new URL(url).protocol === 'https:';
  } catch {
    return false;
  }
}
