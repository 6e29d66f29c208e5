import { useState, type FormEvent } from 'react';
import { keyIsAccepted } from '../api/client';
import { InputField } from '../ui/Field';
import { SubmitActions } from '../ui/FormFooter';

export const KEY_REJECTED = 'That key was not accepted. Check that you copied all of it.';

interface KeyPageProps {
  /** Where the service is: this page's origin. */
  baseUrl: string;
  /** The key this tab had was refused (rotated, or mistyped in the link). */
  rejected: boolean;
  onAccepted: (key: string) => void;
}

/** Asks for the session key when the page was opened without the link `dockhand serve` printed. */
export function KeyPage({ baseUrl, rejected, onAccepted }: KeyPageProps) {
  const [key, setKey] = useState('');
  const [error, setError] = useState<string | undefined>(rejected ? KEY_REJECTED : undefined);
  const [checking, setChecking] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const candidate = key.trim();
    if (!candidate) {
      setError('Paste the session key first.');
      return;
    }
    setChecking(true);
    setError(undefined);
    try {
      if (await keyIsAccepted(baseUrl, candidate)) onAccepted(candidate);
      else setError(KEY_REJECTED);
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : String(failure));
    } finally {
      setChecking(false);
    }
  }

  return (
    <div className="centered">
      <main className="card key-card">
        <p className="brand">Dockhand</p>
        <h1>Enter your session key</h1>
        <p>
          This page talks to the Dockhand service on this computer, which only answers requests that carry its
          session key. Open the link <code>dockhand serve</code> printed (the key is part of it), or print the
          key with <code>dockhand key</code> and paste it here.
        </p>
        <form className="form" onSubmit={(event) => void submit(event)} noValidate>
          <InputField
            id="session-key"
            label="Session key"
            hint="It is kept in this browser tab only, until you close it."
            error={error}
            type="password"
            autoFocus
            autoComplete="off"
            spellCheck={false}
            value={key}
            onChange={(e) => setKey(e.target.value)}
          />
          <SubmitActions label="Continue" pendingLabel="Checking…" pending={checking} />
        </form>
      </main>
    </div>
  );
}
