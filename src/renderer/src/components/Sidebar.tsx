import { ROUTES, type Route } from '../routing';

const LINKS = [
  { route: 'home', label: 'Home' },
  { route: 'settings', label: 'Settings' },
] as const;

export function Sidebar({ current }: { current: Route }) {
  return (
    <nav className="sidebar" aria-label="Main">
      <p className="brand">Dockhand</p>
      <ul className="nav-list">
        {LINKS.map(({ route, label }) => (
          <li key={route}>
            <a
              className="nav-link"
              href={ROUTES[route]}
              aria-current={current === route ? 'page' : undefined}
            >
              {label}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}
