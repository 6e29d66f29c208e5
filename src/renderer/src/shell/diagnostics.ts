import type { ServerInfo } from '../../../shared/api/server';
import { capitalized, sentence } from '../text';
import type { Tone } from '../ui/tone';

/** One item of the status strip and, when something is wrong, what it means and what to do. */
export interface Diagnosis {
  tone: Tone;
  /** A few words for the strip. */
  label: string;
  problem?: {
    /** What the user cannot do, or should know, because of it. */
    headline: string;
    cause: string;
    fix?: string;
  };
}

type DockerCause = NonNullable<ServerInfo['docker']['cause']>;

const DOCKER_LABELS: Record<DockerCause, string> = {
  not_installed: 'Docker not installed',
  not_running: 'Docker not running',
  permission_denied: 'No access to Docker',
  engine_too_old: 'Docker engine too old',
  misconfigured: 'Docker misconfigured',
  not_responding: 'Docker not responding',
};

export function describeDocker(docker: ServerInfo['docker']): Diagnosis {
  if (docker.available) return { tone: 'ok', label: 'Docker available' };
  return {
    tone: 'error',
    label: docker.cause ? DOCKER_LABELS[docker.cause] : 'Docker unavailable',
    problem: {
      headline: 'Sandboxes cannot start until Docker is available',
      cause: sentence(capitalized(docker.error ?? `Docker at ${docker.endpoint} cannot be used`)),
      ...(docker.fix ? { fix: docker.fix } : {}),
    },
  };
}

export function describeSecrets(info: Pick<ServerInfo, 'keychain' | 'secret_storage'>): Diagnosis {
  const { keychain } = info;
  if (keychain.state !== 'ok') {
    const sessionKey =
      info.secret_storage === 'file'
        ? ' Meanwhile the session key is kept in a 0600 file in the data folder.'
        : '';
    return {
      tone: 'error',
      label: 'Keychain unavailable',
      problem: {
        headline: 'API keys and secrets cannot be saved',
        cause:
          `The OS keychain cannot be used (${keychain.state.replaceAll('_', ' ')}): ` +
          sentence(keychain.message ?? 'no reason given') +
          sessionKey,
        fix: keychain.fix ?? 'Check that the OS keychain works.',
      },
    };
  }
  if (keychain.backend === 'file') {
    return {
      tone: 'warning',
      label: 'Secrets in a plain file',
      problem: {
        headline: 'Secrets are stored unencrypted',
        cause:
          'DOCKHAND_SECRETS=file is set, so API keys and secrets are kept in a file in the data folder that only your user can read (0600), not in the OS keychain.',
        fix: 'On a machine with a working OS keychain, unset DOCKHAND_SECRETS to keep secrets encrypted.',
      },
    };
  }
  if (keychain.backend === 'memory') {
    return {
      tone: 'warning',
      label: 'Secrets in memory only',
      problem: {
        headline: 'Secrets are not kept',
        cause: 'API keys and secrets are held in memory and are lost when Dockhand stops.',
      },
    };
  }
  return { tone: 'ok', label: 'Secrets in OS keychain' };
}
