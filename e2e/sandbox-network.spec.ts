import { startScriptedLlm, type ScriptedLlm } from '../test/support/scripted-llm';
import { startService, type DockhandService } from './support/dockhand-service';
import { deleteConversations, SANDBOX_ENV, sandboxSkipReason } from './support/sandbox-docker';
import { ScriptedAgent } from './support/scripted-agent';
import { screenshot } from './support/screenshots';
import { expect, test } from './support/test';

const AGENT_WAIT = { timeout: 60_000 };
/** Refused by the `model_only` policy by its name, before any DNS: nothing leaves the machine. */
const REFUSED_FETCH =
  "python3 -c \"import urllib.request as u\ntry: u.urlopen('http://example.com/', timeout=10)\nexcept Exception as e: print('fetch failed:', e)\"";
const APP =
  'cd /tmp && (nohup python3 -m http.server --bind 127.0.0.1 18090 >/dev/null 2>&1 &) && echo serving';

let skipReason: string | null = null;
let llm: ScriptedLlm | undefined;
let service: DockhandService | undefined;

test.beforeAll(async () => {
  skipReason = await sandboxSkipReason();
  if (skipReason) {
    console.warn(`Skipping the sandbox network flow: ${skipReason}`);
    return;
  }
  llm = await startScriptedLlm();
  service = await startService({
    secrets: 'file',
    env: { ...SANDBOX_ENV, DOCKHAND_SANDBOX_NETWORK: 'gated' },
  });
});

test.afterAll(async () => {
  if (service) {
    await deleteConversations(service);
    await service.stop();
  }
  await llm?.close();
});

test('a refused connection in the timeline, allowed from there; an app the agent serves previewed in Web hosts', async ({
  page,
}) => {
  test.skip(skipReason !== null, skipReason ?? '');
  const svc = service as DockhandService;
  const agent = new ScriptedAgent(llm as ScriptedLlm, 'Network');
  await svc.api('POST', '/api/settings', {
    llm_model: 'openai/gpt-4o',
    llm_api_key: 'sk-test',
    llm_base_url: (llm as ScriptedLlm).baseUrl,
  });
  agent.say(
    { toolCalls: [{ name: 'execute_bash', args: { command: REFUSED_FETCH, security_risk: 'LOW' } }] },
    { toolCalls: [{ name: 'execute_bash', args: { command: APP, security_risk: 'LOW' } }] },
    { text: 'The app serves on port 18090.' },
  );
  const created = await svc.api('POST', '/api/conversations', {
    initial_user_msg: 'Fetch example.com, then serve /tmp',
    network_policy: 'model_only',
  });
  const id = (created.body as { conversation_id: string }).conversation_id;
  await page.goto(svc.link);
  await page.evaluate((hash) => (window.location.hash = hash), `#/conversations/${id}`);

  // The refusal is in the timeline, with the ways to let it through.
  const denial = page.getByRole('group', { name: 'Connection to example.com:80 refused' });
  await expect(denial).toContainText('preset model_only', AGENT_WAIT);
  await expect(page.getByText('The app serves on port 18090.')).toBeVisible(AGENT_WAIT);
  await screenshot(page, 'network-1-denial');
  await denial.getByRole('button', { name: 'Allow for this conversation' }).click();
  await expect(denial).toContainText('Allowed for this conversation');
  const log = await svc.api('GET', `/api/conversations/${id}/network-log`);
  expect((log.body as { entries: { host: string; allowed: boolean }[] }).entries[0]).toMatchObject({
    host: 'example.com',
    allowed: false,
  });

  // The app bound to the sandbox's 127.0.0.1 is forwarded to this machine and previewed.
  const workspace = page.getByRole('region', { name: 'Workspace' });
  await workspace.getByRole('tab', { name: 'Web hosts' }).click();
  const hosts = workspace.getByRole('list', { name: 'Web hosts' });
  const host = hosts.getByRole('button', { name: /^http:\/\/localhost:\d+$/ });
  await expect(host).toBeVisible(AGENT_WAIT);
  await host.click();
  const preview = workspace.frameLocator('iframe[title^="Preview of"]');
  await expect(preview.getByText('Directory listing for /')).toBeVisible();
  await workspace.getByRole('button', { name: 'Reload' }).click();
  await expect(preview.getByText('Directory listing for /')).toBeVisible();
  await expect(hosts.getByRole('link', { name: 'Open in browser' })).toHaveAttribute('target', '_blank');
  await screenshot(page, 'network-2-preview');

  // The Network tab lists what the sandbox asked for.
  await workspace.getByRole('tab', { name: 'Network' }).click();
  const networkLog = workspace.getByRole('table', { name: 'Network log' });
  await expect(networkLog.getByRole('row').filter({ hasText: 'example.com:80' })).toContainText('Refused');
  await screenshot(page, 'network-3-log');
});
