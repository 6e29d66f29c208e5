import type { SandboxInfo } from '../../shared/api/sandboxes';
import { sandboxKey } from '../secrets/sandbox-key';
import type { SessionKey } from '../secrets/session-key';
import type { ExposedUrl, SandboxRecord } from './sandbox-models';

/** A sandbox as the API shows it: its key and URLs only while it runs. */
export function sandboxInfo(
  record: SandboxRecord,
  context: {
    sessionKey: SessionKey;
    agentServerUrls: (sandboxId: string) => ExposedUrl[];
    isolated: boolean;
  },
): SandboxInfo {
  const running = record.status === 'RUNNING';
  return {
    id: record.id,
    created_by_user_id: null,
    sandbox_spec_id: record.specId,
    status: record.status,
    session_api_key: running ? sandboxKey(context.sessionKey.current, record.id) : null,
    exposed_urls: running ? [...record.exposedUrls, ...context.agentServerUrls(record.id)] : null,
    created_at: record.createdAt,
    provider: record.provider,
    isolated: context.isolated,
    error: record.error,
  };
}
