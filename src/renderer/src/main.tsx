import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { adoptKeyFromAddressBar } from './api/connection';
import { App } from './App';
import { ErrorBoundary } from './shell/ErrorBoundary';
import { followTheme } from './theme';
import './styles/base.css';
import './styles/shell.css';
import './styles/forms.css';
import './styles/conversation.css';
import './styles/workspace.css';
import './styles/sandboxes.css';
import './styles/local-repository.css';

adoptKeyFromAddressBar();
followTheme();

const root = document.getElementById('root');
if (root) {
  createRoot(root).render(
    <StrictMode>
      <ErrorBoundary>
        <App />
      </ErrorBoundary>
    </StrictMode>,
  );
}
