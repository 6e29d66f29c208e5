import { HttpError } from '../http/errors';

/** Where secrets live. Every backend keeps a warm in-memory copy so requests never wait on D-Bus. */
export type SecretBackend = 'keychain' | 'file' | 'memory';

/**
 * The named states of the OS keychain. Each one has a fix the user can act on; none of them
 * ever makes Dockhand write secrets in plain text on its own.
 */
export type KeychainState = 'ok' | 'no_session_bus' | 'no_secret_service' | 'locked' | 'unavailable';

export interface SecretStoreStatus {
  backend: SecretBackend;
  state: KeychainState;
  /** What went wrong, in words (null when ok). */
  message: string | null;
  /** What the user can do about it (null when ok). */
  fix: string | null;
}

/** Thrown when secrets cannot be read or stored; the API answers 503 with its message. */
export class SecretStoreUnavailable extends HttpError {
  constructor(readonly storeStatus: SecretStoreStatus) {
    const reason = storeStatus.message ?? storeStatus.state;
    super(503, {
      detail:
        `Secret storage is not available (${storeStatus.state}): ${reason}. ${storeStatus.fix ?? ''}`.trim(),
    });
  }
}

/** Secrets by account name (`llm_api_key`, `provider:github`, `secret:MY_TOKEN`, ...). */
export interface SecretStore {
  readonly status: SecretStoreStatus;
  get(account: string): Promise<string | null>;
  set(account: string, value: string): Promise<void>;
  delete(account: string): Promise<void>;
  /** Every stored value, for masking events and logs. */
  values(): string[];
}

export const SERVICE_NAME = 'Dockhand';
