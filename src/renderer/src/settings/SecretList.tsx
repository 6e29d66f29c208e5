import { useState } from 'react';
import type { CustomSecretInfo } from '../../../shared/api/secrets';
import { useDeleteSecret, useSecrets } from '../api/secret-queries';
import { Notice } from '../ui/Notice';

function SecretRow({ secret }: { secret: CustomSecretInfo }) {
  const [confirming, setConfirming] = useState(false);
  const remove = useDeleteSecret();
  return (
    <li className="secret-row">
      <div className="secret-info">
        <code className="secret-name">{secret.name}</code>
        {secret.description && <span className="secret-description">{secret.description}</span>}
        {remove.isError && <p className="field-error">{remove.error.message}</p>}
      </div>
      {confirming ? (
        <div className="secret-actions" role="group" aria-label={`Confirm deleting ${secret.name}`}>
          <span>Delete {secret.name}?</span>
          <button
            type="button"
            className="button-danger"
            disabled={remove.isPending}
            onClick={() => remove.mutate(secret.name)}
          >
            {remove.isPending ? 'Deleting…' : 'Delete'}
          </button>
          {/* Focus lands on the safe choice; the row's own button is gone once the question shows. */}
          <button type="button" className="button-secondary" autoFocus onClick={() => setConfirming(false)}>
            Cancel
          </button>
        </div>
      ) : (
        <button
          type="button"
          className="button-secondary"
          aria-label={`Delete ${secret.name}`}
          onClick={() => setConfirming(true)}
        >
          Delete
        </button>
      )}
    </li>
  );
}

/** The stored custom secrets, by name and description; values never leave the service. */
export function SecretList() {
  const secrets = useSecrets();
  if (secrets.isPending) return <p className="muted">Loading secrets…</p>;
  if (secrets.isError) {
    return (
      <Notice tone="error" title="Secrets could not be loaded">
        <p>{secrets.error.message}</p>
      </Notice>
    );
  }
  if (secrets.data.length === 0) return <p className="empty-inline">No custom secrets yet.</p>;
  return (
    <ul className="secret-list" aria-label="Custom secrets">
      {secrets.data.map((secret) => (
        <SecretRow key={secret.name} secret={secret} />
      ))}
    </ul>
  );
}
