import { ROUTES, type RouteName } from '../routing';
import { GO_TO_KEYS } from './go-to-shortcuts';

const LINKS = [
  { route: 'home', label: 'Home' },
  { route: 'conversations', label: 'Conversations' },
  { route: 'sandboxes', label: 'Sandboxes' },
  { route: 'settings', label: 'Settings' },
] as const;

/** `page` for the current screen's link; a single conversation is a place under Conversations. */
function currentness(link: RouteName, current: RouteName): 'page' | 'true' | undefined {
  if (link === current) return 'page';
  return link === 'conversations' && current === 'conversation' ? 'true' : undefined;
}

export function Sidebar({ current }: { current: RouteName }) {
  return (
    <nav className="sidebar" aria-label="Main">
      <p className="brand">Dockhand</p>
      <ul className="nav-list">
        {LINKS.map(({ route, label }) => {
          const key = GO_TO_KEYS[route];
          return (
            <li key={route} className="nav-item">
              <a
                className="nav-link"
                href={ROUTES[route]}
                aria-current={currentness(route, current)}
                aria-keyshortcuts={key ? `g ${key}` : undefined}
              >
                {label}
              </a>
              {key && (
                <kbd className="nav-shortcut" aria-hidden="true">
                  g {key}
                </kbd>
              )}
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
