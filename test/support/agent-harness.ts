import { rmSync } from 'node:fs';
import path from 'node:path';
import Docker from 'dockerode';
import type { V0Event } from '../../src/shared/api/events';
import { AgentLoop, type StatusUpdate } from '../../src/service/agent/agent-loop';
import { createLlmClient } from '../../src/service/agent/llm/llm-client';
import type { PriceTable } from '../../src/service/agent/llm/prices';
import { EditHistory } from '../../src/service/agent/tools/str-replace-editor/edit-history';
import { Editor } from '../../src/service/agent/tools/str-replace-editor/editor';
import { ToolRegistry } from '../../src/service/agent/tools/registry';
import { TaskList } from '../../src/service/agent/tools/task-list';
import { EventLog } from '../../src/service/events/event-log';
import { SecretMasker } from '../../src/service/events/secret-masker';
import { DockerSandboxFiles } from '../../src/service/sandbox/files/docker-files';
import { dockerExec } from '../../src/service/sandbox/docker/docker-exec';
import { DockerShellTransport } from '../../src/service/sandbox/shell/docker-transport';
import { ShellSession } from '../../src/service/sandbox/shell/shell-session';
import { removeContainer, startTestContainer } from './test-sandboxes';
import { openDatabase, type Db } from '../../src/service/storage/database';
import { tempDataDir } from './service';
import { startScriptedLlm, type ScriptedLlm, type ScriptedStep } from './scripted-llm';
import { instantTiming } from './scripted-llm/instant-timing';

export const HARNESS_SECRET = 's3cr3t-v4lue';

export interface AgentOptions {
  api?: 'openai' | 'anthropic';
  /** A model string without the provider prefix. */
  model?: string;
  confirmationMode?: boolean;
  analyzer?: string | null;
  maxIterations?: number;
  maxBudgetPerTask?: number | null;
  prices?: PriceTable;
  /** Sends to the scripted LLM behind a remote-looking base URL, so the model is not priced as local. */
  remote?: boolean;
}

const REMOTE_BASE_URL = 'https://llm.example.test/v1';

/**
 * One agent loop per test against a shared Docker sandbox, a real SQLite event log and a scripted LLM:
 * `setUp` in beforeAll, `closeLlm` in afterEach, `tearDown` in afterAll.
 */
export class AgentHarness {
  container!: Docker.Container;
  shell!: ShellSession;
  files!: DockerSandboxFiles;
  private dataDir = '';
  private db: Db | null = null;
  private llm: ScriptedLlm | null = null;
  private conversations = 0;

  constructor(
    private readonly docker: Docker,
    private readonly purpose: string,
  ) {}

  async setUp(): Promise<void> {
    this.container = await startTestContainer(this.docker, this.purpose);
    this.files = new DockerSandboxFiles(this.container);
    this.shell = new ShellSession(new DockerShellTransport(this.container), { noChangeTimeoutMs: 2000 });
    await this.shell.start();
    this.dataDir = tempDataDir();
    this.db = openDatabase(this.dataDir);
  }

  async tearDown(): Promise<void> {
    await this.closeLlm();
    await this.shell?.close();
    if (this.container) await removeContainer(this.container);
    this.db?.close();
    if (this.dataDir) rmSync(this.dataDir, { recursive: true, force: true });
  }

  async closeLlm(): Promise<void> {
    await this.llm?.close();
    this.llm = null;
  }

  /** A fresh conversation's loop that plays `steps`. */
  async agent(steps: ScriptedStep[], options: AgentOptions = {}) {
    const db = this.db;
    if (!db) throw new Error('AgentHarness.setUp() has not run');
    const llm = await startScriptedLlm(steps);
    this.llm = llm;
    const conversationId = `c${++this.conversations}`;
    const events = new EventLog(db);
    const statuses: StatusUpdate[] = [];
    const container = this.container;
    const remove = async (p: string) => void (await dockerExec(container, ['rm', '-f', p]));
    const provider = options.api === 'anthropic' ? 'anthropic' : 'openai';
    const model = options.model ?? (provider === 'anthropic' ? 'claude-sonnet-4-5-20250929' : 'gpt-4o');
    const loop = new AgentLoop({
      conversationId,
      events,
      masker: new SecretMasker([HARNESS_SECRET]),
      llm: createLlmClient({
        model: `${provider}/${model}`,
        apiKey: 'sk-test-key',
        baseUrl: options.remote ? REMOTE_BASE_URL : llm.baseUrl,
        fetch: options.remote
          ? (input, init) => fetch(requestUrl(input).replace(REMOTE_BASE_URL, llm.baseUrl), init)
          : undefined,
        timing: instantTiming().timing,
        prices: options.prices,
      }),
      tools: new ToolRegistry(),
      toolContext: {
        shell: this.shell,
        editor: new Editor(
          { ...bindFiles(this.files), remove },
          new EditHistory(db, conversationId),
          () => '/workspace/project',
        ),
        tasks: new TaskList(path.join(this.dataDir, conversationId)),
      },
      secrets: { names: ['MY_TOKEN'], values: [HARNESS_SECRET] },
      config: {
        systemPrompt: 'You are a test agent.',
        recall: {
          workspace: () => ({ content: '<RUNTIME_INFORMATION>test</RUNTIME_INFORMATION>', extras: {} }),
          knowledge: () => null,
        },
        maxIterations: options.maxIterations ?? 50,
        maxBudgetPerTask: options.maxBudgetPerTask ?? null,
        version: '1.0.0',
        condenserEnabled: true,
        condenserMaxSize: null,
        contextWindow: 128_000,
        confirmationMode: options.confirmationMode ?? false,
        securityAnalyzer: options.analyzer ?? null,
      },
      interrupt: () => this.shell.interrupt(),
      onStatus: (s) => statuses.push(s),
    });
    const log = () => events.after(conversationId, -1);
    const states = () =>
      log()
        .filter((e) => e.observation === 'agent_state_changed')
        .map((e) => (e.extras as { agent_state: string }).agent_state);
    return { loop, log, states, statuses, llm };
  }
}

export const observationsOf = (events: V0Event[], kind: string) =>
  events.filter((e) => e.observation === kind);

function requestUrl(input: string | URL | Request): string {
  return input instanceof Request ? input.url : String(input);
}

function bindFiles(target: DockerSandboxFiles) {
  return {
    read: target.read.bind(target),
    write: target.write.bind(target),
    stat: target.stat.bind(target),
    list: target.list.bind(target),
  };
}
