import { useMemo, useSyncExternalStore } from 'react';

/**
 * Screens live in the URL fragment (`#/settings`): it works wherever the page is loaded from
 * (the service, a file, a custom protocol) and the service never sees it.
 */
export const ROUTES = {
  home: '#/',
  conversations: '#/conversations',
  sandboxes: '#/sandboxes',
  settings: '#/settings',
} as const;

export type Route =
  | { name: Exclude<keyof typeof ROUTES, 'settings'> }
  | { name: 'settings'; section: string | null }
  | { name: 'conversation'; conversationId: string }
  | { name: 'not-found' };

export type RouteName = Route['name'];

const CONVERSATION = /^#\/conversations\/([^/]+)$/;
const SETTINGS_SECTION = /^#\/settings\/([a-z-]+)$/;

/** A section of Settings, e.g. `#/settings/sandboxes`. */
export function settingsHref(section: string): string {
  return `${ROUTES.settings}/${section}`;
}

export function conversationHref(conversationId: string): string {
  return `${ROUTES.conversations}/${encodeURIComponent(conversationId)}`;
}

export function routeOf(hash: string): Route {
  if (hash === '' || hash === '#' || hash === ROUTES.home) return { name: 'home' };
  if (hash === ROUTES.settings) return { name: 'settings', section: null };
  const section = SETTINGS_SECTION.exec(hash);
  if (section?.[1]) return { name: 'settings', section: section[1] };
  if (hash === ROUTES.conversations) return { name: 'conversations' };
  if (hash === ROUTES.sandboxes) return { name: 'sandboxes' };
  const conversation = CONVERSATION.exec(hash);
  if (conversation?.[1]) {
    try {
      return { name: 'conversation', conversationId: decodeURIComponent(conversation[1]) };
    } catch {
      return { name: 'not-found' };
    }
  }
  return { name: 'not-found' };
}

export function navigate(href: string): void {
  window.location.hash = href;
}

function subscribe(onChange: () => void): () => void {
  window.addEventListener('hashchange', onChange);
  return () => window.removeEventListener('hashchange', onChange);
}

/** The current screen; `key` changes with every address, so pages can reset on navigation. */
export function useRoute(): Route & { key: string } {
  const hash = useSyncExternalStore(subscribe, () => window.location.hash);
  return useMemo(() => ({ ...routeOf(hash), key: hash }), [hash]);
}
