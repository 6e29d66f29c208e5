import { QueryClientProvider } from '@tanstack/react-query';
import { useState } from 'react';
import { ApiProvider } from './api/ApiProvider';
import { ApiClient } from './api/client';
import type { Connection } from './api/connection';
import { createQueryClient } from './api/query-client';
import { AppShell } from './shell/AppShell';
import { KeyPage } from './shell/KeyPage';
import { useConnectionGate } from './shell/useConnectionGate';

interface ConnectedAppProps {
  connection: Connection;
  onRefused: (connection: Connection) => void;
}

function ConnectedApp({ connection, onRefused }: ConnectedAppProps) {
  const [api] = useState(() => new ApiClient(connection, () => onRefused(connection)));
  const [queryClient] = useState(createQueryClient);
  return (
    <ApiProvider client={api}>
      <QueryClientProvider client={queryClient}>
        <AppShell />
      </QueryClientProvider>
    </ApiProvider>
  );
}

export function App() {
  const { gate, refused, accept, retry } = useConnectionGate();
  switch (gate.kind) {
    case 'connected':
      return <ConnectedApp key={gate.connection.apiKey} connection={gate.connection} onRefused={refused} />;
    case 'key-needed':
      return <KeyPage baseUrl={window.location.origin} rejected={gate.rejected} onAccepted={accept} />;
    case 'connecting':
      return (
        <div className="centered">
          <p className="muted" role="status">
            Connecting to the Dockhand service…
          </p>
        </div>
      );
    case 'failed':
      return (
        <div className="centered">
          <main className="card" role="alert">
            <h1>Cannot connect to the Dockhand service</h1>
            <p>{gate.message}</p>
            <button type="button" className="button-primary" onClick={retry}>
              Try again
            </button>
          </main>
        </div>
      );
  }
}
