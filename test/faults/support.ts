import { existsSync } from 'node:fs';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import type { V0Event } from '../../src/shared/api/events';
import { DATABASE_FILE } from '../../src/service/storage/database';
import { TEST_IMAGE, removeLabelled } from '../sandbox/support';
import { cliEnv } from '../support/cli';
import { rawRequest, type RequestOptions, type TestResponse } from '../support/service';
import type { ScriptedLlm } from '../support/scripted-llm';
import { until } from '../support/until';

/** A keyed request to a service on a loopback port. */
export type Api = (method: string, urlPath: string, options?: RequestOptions) => Promise<TestResponse>;

export function apiOf(port: number, key: string): Api {
  return (method, urlPath, options = {}) => rawRequest(port, method, urlPath, { key, ...options });
}

/** The environment of a `dockhand serve` child: file secrets, the offline image, no network, no idle pause. */
export function serveEnvironment(extra: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  return cliEnv({
    DOCKHAND_SECRETS: 'file',
    DOCKHAND_SANDBOX_IMAGE: TEST_IMAGE,
    DOCKHAND_SANDBOX_NETWORK: 'none',
    DOCKHAND_SANDBOX_IDLE_PAUSE_S: '0',
    ...extra,
  });
}

/** Settings that point the agent at the scripted LLM, with no condenser and room for long runs. */
export async function useScriptedLlm(api: Api, llm: ScriptedLlm, extra: Record<string, unknown> = {}) {
  const saved = await api('POST', '/api/settings', {
    body: {
      llm_model: 'openai/gpt-4o',
      llm_api_key: 'sk-test',
      llm_base_url: llm.baseUrl,
      enable_default_condenser: false,
      max_iterations: 10_000,
      ...extra,
    },
  });
  if (saved.status !== 200) throw new Error(`settings refused: ${saved.status} ${saved.text}`);
}

export type ConversationView = Record<string, unknown> & { status: string; agent_state: string | null };

export async function conversation(api: Api, id: string): Promise<ConversationView> {
  return (await api('GET', `/api/conversations/${id}`)).json as ConversationView;
}

export async function startConversation(api: Api, body: Record<string, unknown> = {}): Promise<string> {
  const created = await api('POST', '/api/conversations', { body });
  if (created.status !== 200) throw new Error(`create refused: ${created.status} ${created.text}`);
  return (created.json as { conversation_id: string }).conversation_id;
}

export function untilAgentState(api: Api, id: string, states: string[]): Promise<ConversationView> {
  return until(
    () => conversation(api, id),
    (c) => states.includes(c.agent_state ?? ''),
    `agent state ${states.join(' or ')} of ${id}`,
  );
}

/** Every stored event of a conversation, paged through the API. */
export async function allEvents(api: Api, id: string): Promise<V0Event[]> {
  const events: V0Event[] = [];
  for (;;) {
    const page = (await api('GET', `/api/conversations/${id}/events?start_id=${events.length}&limit=100`))
      .json as { events: V0Event[]; has_more: boolean };
    events.push(...page.events);
    if (!page.has_more) return events;
  }
}

/** `PRAGMA integrity_check` of the data folder's database, read-only (`["ok"]` when sound). */
export function integrityCheck(dataDir: string): string[] {
  const db = new DatabaseSync(path.join(dataDir, DATABASE_FILE), { readOnly: true });
  try {
    return (db.prepare('PRAGMA integrity_check').all() as { integrity_check: string }[]).map(
      (r) => r.integrity_check,
    );
  } finally {
    db.close();
  }
}

/** The install id labelling the containers of the service using `dataDir`, or null before its first start. */
export function instanceOf(dataDir: string): string | null {
  const file = path.join(dataDir, DATABASE_FILE);
  if (!existsSync(file)) return null;
  const db = new DatabaseSync(file, { readOnly: true });
  try {
    const row = db.prepare("SELECT value FROM service_meta WHERE key = 'instance_id'").get() as
      { value: string } | undefined;
    return row?.value ?? null;
  } finally {
    db.close();
  }
}

/** Removes the containers and volumes of the service that used `dataDir`. */
export async function removeSandboxesOf(dataDir: string): Promise<void> {
  const instance = instanceOf(dataDir);
  if (instance) await removeLabelled(`dev.dockhand.instance=${instance}`);
}
