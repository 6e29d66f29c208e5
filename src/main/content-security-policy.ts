const SERVICE_ORIGIN = /^http:\/\/127\.0\.0\.1:\d{1,5}$/;

/**
 * The Content-Security-Policy sent with every app:// response: the page runs only its own files and
 * may connect to nothing but the Dockhand service on 127.0.0.1 (over HTTP, and its websocket: the terminal).
 * Frames may show only pages on this computer's loopback (127.0.0.1, or localhost as the Web hosts list names
 * it): the previews of apps in a sandbox, whose ports are forwarded there. The page frames them sandboxed without `allow-same-origin`, so a preview runs in an opaque origin
 * and reaches neither the page nor the service's storage.
 */
export function contentSecurityPolicy(serviceOrigin: string): string {
  if (!SERVICE_ORIGIN.test(serviceOrigin)) {
    throw new Error(`The service origin must be http://127.0.0.1:<port>, got ${serviceOrigin}`);
  }
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    `connect-src ${serviceOrigin} ${serviceOrigin.replace(/^http:/, 'ws:')}`,
    'frame-src http://127.0.0.1:* http://localhost:*',
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}
