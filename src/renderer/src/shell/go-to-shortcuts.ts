import { useEffect } from 'react';
import { navigate, ROUTES, type RouteName } from '../routing';

/** `g` then a letter goes to a screen, as in many web tools; no modifier, so no browser shortcut is taken. */
export const GO_TO_KEYS: Partial<Record<RouteName, string>> = {
  home: 'h',
  conversations: 'c',
  sandboxes: 's',
  settings: ',',
};

/** How long after `g` the second key counts. */
const SEQUENCE_MS = 1_500;

/** The second key's screen, or null when the key is not one of them. */
export function goToTarget(key: string): keyof typeof ROUTES | null {
  for (const [route, letter] of Object.entries(GO_TO_KEYS)) {
    if (letter === key.toLowerCase() && route in ROUTES) return route as keyof typeof ROUTES;
  }
  return null;
}

/** Typing in a field, or a key with a modifier, is never a shortcut. */
function ignored(event: KeyboardEvent): boolean {
  if (event.ctrlKey || event.metaKey || event.altKey || event.defaultPrevented) return true;
  const target = event.target;
  if (!(target instanceof HTMLElement)) return false;
  return target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName);
}

/** Listens for `g h`, `g c`, `g s` and `g ,` anywhere outside a text field. */
export function useGoToShortcuts(): void {
  useEffect(() => {
    let pressedG = 0;
    const onKeyDown = (event: KeyboardEvent) => {
      if (ignored(event)) return;
      if (pressedG && event.timeStamp - pressedG < SEQUENCE_MS) {
        pressedG = 0;
        const route = goToTarget(event.key);
        if (!route) return;
        event.preventDefault();
        navigate(ROUTES[route]);
        return;
      }
      pressedG = event.key === 'g' ? event.timeStamp : 0;
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, []);
}
