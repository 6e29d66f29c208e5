import type { GitProvider } from '../../../shared/api/settings';
import { PROVIDER_LABELS } from '../start/RepositoryPicker';
import { Notice } from '../ui/Notice';

/** Tokens saved while their provider could not be reached: kept, and checked once it answers again. */
export function UnverifiedTokens({ providers }: { providers: GitProvider[] }) {
  if (providers.length === 0) return null;
  const names = providers.map((p) => PROVIDER_LABELS[p]).join(', ');
  return (
    <Notice tone="warning" title="Saved without verification">
      <p>
        {names} could not be reached when the token was saved, so it is stored unverified. Dockhand checks it
        as soon as the provider answers again; a token the provider rejects is then removed.
      </p>
    </Notice>
  );
}
