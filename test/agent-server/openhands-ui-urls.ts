/**
 * How the OpenHands web UI (0.62, V1 mode) builds the URLs of a V1 conversation from the `url` of
 * `GET /api/conversations/{id}`: a port of `frontend/src/utils/websocket-url.ts` (OpenHands/OpenHands), with the
 * page's location passed in for `window.location`. A relative `url` falls back to the page's own host.
 */
export interface PageLocation {
  host: string;
  protocol: string;
}

function baseHost(conversationUrl: string | null, page: PageLocation): string {
  if (conversationUrl && !conversationUrl.startsWith('/')) {
    return URL.canParse(conversationUrl) ? new URL(conversationUrl).host : page.host;
  }
  return page.host;
}

/** Everything before `/api/conversations` in an absolute URL (a proxy's `/runtime/<port>`), no trailing slash. */
function pathPrefix(conversationUrl: string | null): string {
  if (!conversationUrl || conversationUrl.startsWith('/') || !URL.canParse(conversationUrl)) return '';
  return (new URL(conversationUrl).pathname.split('/api/conversations')[0] ?? '').replace(/\/$/, '');
}

/** `buildHttpBaseUrl`: where the UI sends a V1 conversation's REST calls. */
export function httpBaseUrl(conversationUrl: string | null, page: PageLocation): string {
  const protocol = page.protocol === 'https:' ? 'https:' : 'http:';
  return `${protocol}//${baseHost(conversationUrl, page)}${pathPrefix(conversationUrl)}`;
}

/** `buildWebSocketUrl`: the events websocket, before its query. */
export function webSocketUrl(
  conversationId: string,
  conversationUrl: string | null,
  page: PageLocation,
): string {
  const protocol = page.protocol === 'https:' ? 'wss:' : 'ws:';
  return `${protocol}//${baseHost(conversationUrl, page)}${pathPrefix(conversationUrl)}/sockets/events/${conversationId}`;
}
