import { useEffect, useRef } from 'react';
import { ConversationPage } from '../conversation/ConversationPage';
import { ConversationsPage } from '../conversation/ConversationsPage';
import { useRoute, type Route } from '../routing';
import { SandboxesPage } from '../sandboxes/SandboxesPage';
import { SettingsPage } from '../settings/SettingsPage';
import { HomePage } from '../start/HomePage';
import { useGoToShortcuts } from './go-to-shortcuts';
import { NotFoundPage } from './NotFoundPage';
import { Sidebar } from './Sidebar';
import { StatusStrip } from './StatusStrip';

function Page({ route }: { route: Route }) {
  switch (route.name) {
    case 'home':
      return <HomePage />;
    case 'conversations':
      return <ConversationsPage />;
    case 'conversation':
      return <ConversationPage key={route.conversationId} conversationId={route.conversationId} />;
    case 'sandboxes':
      return <SandboxesPage />;
    case 'settings':
      return <SettingsPage section={route.section} />;
    case 'not-found':
      return <NotFoundPage />;
  }
}

/** Navigation, the current page and, under it, the status bar; the window never scrolls as a whole. */
export function AppShell() {
  const route = useRoute();
  const main = useRef<HTMLElement>(null);
  const shownRoute = useRef(route.key);
  // A conversation fills the window: its events scroll inside it, the composer stays in view.
  const fullHeight = route.name === 'conversation';
  useGoToShortcuts();

  // After navigating, keyboard and screen-reader users continue from the new page, not the old link.
  useEffect(() => {
    if (shownRoute.current === route.key) return;
    shownRoute.current = route.key;
    main.current?.focus();
  }, [route.key]);

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
      <Sidebar current={route.name} />
      <div className="shell-body">
        <main id="main" className={fullHeight ? 'page page-full-height' : 'page'} ref={main} tabIndex={-1}>
          <Page route={route} />
        </main>
        <StatusStrip />
      </div>
    </div>
  );
}
