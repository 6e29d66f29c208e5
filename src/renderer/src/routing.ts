import { useSyncExternalStore } from 'react';

/**
 * Screens live in the URL fragment (`#/settings`): it works wherever the page is loaded from
 * (the service, a file, a custom protocol) and the service never sees it.
 */
export const ROUTES = {
  home: '#/',
  settings: '#/settings',
} as const;

export type Route = keyof typeof ROUTES | 'not-found';

export function routeOf(hash: string): Route {
  if (hash === '' || hash === '#' || hash === ROUTES.home) return 'home';
  if (hash === ROUTES.settings) return 'settings';
  return 'not-found';
}

function subscribe(onChange: () => void): () => void {
  window.addEventListener('hashchange', onChange);
  return () => window.removeEventListener('hashchange', onChange);
}

export function useRoute(): Route {
  return useSyncExternalStore(subscribe, () => routeOf(window.location.hash));
}
