import { useCallback, useEffect, useState } from 'react';
import {
  bridgeConnection,
  browserConnection,
  desktopBridge,
  forgetKey,
  rememberKey,
  type Connection,
} from '../api/connection';

export type Gate =
  | { kind: 'connecting'; refusedKey?: string }
  | { kind: 'key-needed'; rejected: boolean }
  | { kind: 'connected'; connection: Connection }
  | { kind: 'failed'; message: string };

function initialGate(): Gate {
  if (desktopBridge()) return { kind: 'connecting' };
  const connection = browserConnection();
  return connection ? { kind: 'connected', connection } : { kind: 'key-needed', rejected: false };
}

/**
 * Where the app stands with the service: asking the desktop app for the connection, waiting for a key
 * (in a browser), connected, or unable to connect.
 */
export function useConnectionGate() {
  const [gate, setGate] = useState<Gate>(initialGate);
  const refusedKey = gate.kind === 'connecting' ? gate.refusedKey : undefined;

  useEffect(() => {
    const bridge = desktopBridge();
    if (gate.kind !== 'connecting' || !bridge) return;
    let current = true;
    bridgeConnection(bridge).then(
      (connection) => {
        if (!current) return;
        setGate(
          connection.apiKey === refusedKey
            ? { kind: 'failed', message: 'The Dockhand service refused the key the app gave it.' }
            : { kind: 'connected', connection },
        );
      },
      (error: unknown) => {
        if (!current) return;
        const reason = error instanceof Error ? error.message : String(error);
        setGate({ kind: 'failed', message: `The app could not tell where its service is: ${reason}` });
      },
    );
    return () => {
      current = false;
    };
  }, [gate.kind, refusedKey]);

  /** The service answered 401: the key was rotated or is wrong. */
  const refused = useCallback((connection: Connection) => {
    if (connection.source === 'browser') forgetKey();
    const next: Gate =
      connection.source === 'bridge'
        ? { kind: 'connecting', refusedKey: connection.apiKey }
        : { kind: 'key-needed', rejected: true };
    setGate((current) =>
      current.kind === 'connected' && current.connection.apiKey === connection.apiKey ? next : current,
    );
  }, []);

  const accept = useCallback((key: string) => {
    rememberKey(key);
    const connection = browserConnection(key);
    if (connection) setGate({ kind: 'connected', connection });
  }, []);

  const retry = useCallback(() => setGate({ kind: 'connecting' }), []);

  return { gate, refused, accept, retry };
}
