import { Field } from '../ui/Field';
import type { DraftSectionProps, LlmSettingsDraft } from './llm-settings-draft';

/** What each network of Docker sandboxes gives, and gives up. */
const NETWORK_HINTS: Record<LlmSettingsDraft['network'], string> = {
  gated:
    'Only loopback inside the sandbox: everything it reaches goes through Dockhand, by the policy below, and each refusal shows in the conversation. Ports its apps open are forwarded to this computer.',
  bridge:
    'Direct internet access on Dockhand’s own network: no policy and no record of what the sandbox reaches; anything the agent runs can send the workspace and its secrets anywhere.',
  host: 'The host’s own network: no isolation of the network at all. The sandbox reaches every service of this computer (Dockhand’s own API excepted only by its key) and its ports are the host’s.',
};

const POLICY_HINTS: Record<LlmSettingsDraft['egressPolicy'], string> = {
  open: 'Any public address. Loopback, private and link-local addresses stay refused unless you list them.',
  balanced:
    'Package registries (npm, PyPI, crates.io, Go, RubyGems, Maven Central, Debian, Ubuntu and Alpine mirrors), your git providers’ hosts, your model and MCP hosts, and your own list.',
  model_only: 'Only your model’s host, and your own list.',
  offline: 'Nothing leaves this computer but what you list yourself.',
};

/** The network of new Docker sandboxes, and what a gated one may reach. */
export function SandboxNetworkFields({ draft, edit, errors }: Omit<DraftSectionProps, 'hidden'>) {
  return (
    <>
      <h3 id="network-heading">Network</h3>
      <Field
        id="sandbox-network"
        label="Network of new Docker sandboxes"
        hint={NETWORK_HINTS[draft.network]}
        error={errors.sandbox_network}
      >
        {(control) => (
          <select
            {...control}
            value={draft.network}
            onChange={(e) => edit({ network: e.target.value as LlmSettingsDraft['network'] })}
          >
            <option value="gated">Gated (through Dockhand, by policy)</option>
            <option value="bridge">Bridge (direct internet, no policy)</option>
            <option value="host">Host (the host’s network, no isolation)</option>
          </select>
        )}
      </Field>
      <Field
        id="egress-policy"
        label="What gated sandboxes may reach"
        hint={`${POLICY_HINTS[draft.egressPolicy]} A conversation may start with another policy.`}
        error={errors.egress_policy}
      >
        {(control) => (
          <select
            {...control}
            value={draft.egressPolicy}
            onChange={(e) => edit({ egressPolicy: e.target.value as LlmSettingsDraft['egressPolicy'] })}
          >
            <option value="balanced">Balanced (registries and configured hosts)</option>
            <option value="open">Open (any public address)</option>
            <option value="model_only">Model only</option>
            <option value="offline">Offline</option>
          </select>
        )}
      </Field>
      <Field
        id="egress-allow"
        label="Always allow"
        hint="One a line: a host (example.com), *.example.com, host:port, an address or a range (10.0.0.0/8). Naming a host also lets its private addresses through."
        error={errors.egress_allow}
      >
        {(control) => (
          <textarea
            {...control}
            rows={3}
            spellCheck={false}
            value={draft.egressAllow}
            onChange={(e) => edit({ egressAllow: e.target.value })}
          />
        )}
      </Field>
      <Field
        id="egress-deny"
        label="Never allow"
        hint="Same forms; a refusal here wins over every allow."
        error={errors.egress_deny}
      >
        {(control) => (
          <textarea
            {...control}
            rows={2}
            spellCheck={false}
            value={draft.egressDeny}
            onChange={(e) => edit({ egressDeny: e.target.value })}
          />
        )}
      </Field>
    </>
  );
}
