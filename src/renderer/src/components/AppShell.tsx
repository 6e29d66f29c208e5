import { useEffect, useRef } from 'react';
import { HomePage } from '../pages/HomePage';
import { NotFoundPage } from '../pages/NotFoundPage';
import { SettingsPage } from '../pages/SettingsPage';
import { useRoute, type Route } from '../routing';
import { Sidebar } from './Sidebar';
import { StatusStrip } from './StatusStrip';

function Page({ route }: { route: Route }) {
  if (route === 'home') return <HomePage />;
  if (route === 'settings') return <SettingsPage />;
  return <NotFoundPage />;
}

/** Navigation, the status strip and the current page. */
export function AppShell() {
  const route = useRoute();
  const main = useRef<HTMLElement>(null);
  const shownRoute = useRef(route);

  // After navigating, keyboard and screen-reader users continue from the new page, not the old link.
  useEffect(() => {
    if (shownRoute.current === route) return;
    shownRoute.current = route;
    main.current?.focus();
  }, [route]);

  return (
    <div className="shell">
      <a
        className="skip-link"
        href="#main"
        onClick={(event) => {
          event.preventDefault();
          main.current?.focus();
        }}
      >
        Skip to content
      </a>
      <Sidebar current={route} />
      <div className="shell-body">
        <StatusStrip />
        <main id="main" className="page" ref={main} tabIndex={-1}>
          <Page route={route} />
        </main>
      </div>
    </div>
  );
}
