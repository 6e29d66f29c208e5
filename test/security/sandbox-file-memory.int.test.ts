import { request, type IncomingMessage } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Editor, type EditorFiles } from '../../src/service/agent/tools/str-replace-editor/editor';
import type { SandboxWorkspace } from '../../src/service/sandbox/sandbox-workspace';
import { WORKING_DIR } from '../../src/service/sandbox/sandbox-specs';
import { startScriptedLlm, type ScriptedLlm } from '../support/scripted-llm';
import { rawRequest, type TestService } from '../support/service';
import { until } from '../support/until';
import {
  closeSandboxService,
  dockerSkipReason,
  startSandboxService,
  useScriptedModel,
} from '../sandbox/support';

const dockerSkip = await dockerSkipReason();
if (dockerSkip) console.warn(`Skipping the sandbox file memory test: ${dockerSkip}`);

const MiB = 1024 * 1024;
const GiB = 1024 * MiB;
/**
 * What one read of a sandbox file may add to the service's resident memory, whatever the file's size: a sixth of
 * the 3 GiB file. The test's own client shares the process, so its garbage counts too (a full download has
 * reached +152 MiB); reading whole took +2.1 GiB for a 1 GiB file.
 */
const MEMORY_BOUND = 512 * MiB;
/** A sparse file in the sandbox: no disk, but every one of its bytes goes through the service when read. */
const BIG_SIZE = 3 * GiB;
const BIG = `${WORKING_DIR}/big`;

interface Measured<T> {
  result: T;
  baseline: number;
  peak: number;
}

/** The service runs in this process: its resident memory, sampled while `run` reads. */
async function measured<T>(what: string, run: (sample: () => void) => Promise<T>): Promise<Measured<T>> {
  const baseline = process.memoryUsage.rss();
  let peak = baseline;
  const sample = () => void (peak = Math.max(peak, process.memoryUsage.rss()));
  const timer = setInterval(sample, 5);
  try {
    const result = await run(sample);
    sample();
    console.info(
      `${what}: resident memory ${Math.round(baseline / MiB)} MiB before, ${Math.round(peak / MiB)} MiB at most`,
    );
    return { result, baseline, peak };
  } finally {
    clearInterval(timer);
  }
}

interface Download {
  status: number;
  headers: IncomingMessage['headers'];
  bytes: number;
  /** Whether the body arrived to its end (false: the connection was cut). */
  complete: boolean;
}

/**
 * GETs `path` and throws its bytes away as they come, sampling memory every MiB. With `stallAfter`, stops
 * reading after that many bytes, lets the service run while the client reads nothing, then hangs up.
 */
function download(
  port: number,
  path: string,
  key: string,
  sample: () => void,
  stallAfter?: { bytes: number; stalled: () => Promise<void> },
): Promise<Download> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, headers: { 'X-Session-API-Key': key } }, (res) => {
      let bytes = 0;
      let sampled = 0;
      const done = (complete: boolean) =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, bytes, complete });
      res.on('data', (chunk: Buffer) => {
        bytes += chunk.length;
        if (bytes - sampled >= MiB) {
          sampled = bytes;
          sample();
        }
        if (stallAfter && bytes >= stallAfter.bytes && !res.isPaused()) {
          res.pause();
          void stallAfter.stalled().then(() => {
            req.destroy();
            done(false);
          });
        }
      });
      res.on('end', () => done(res.complete));
      res.on('error', () => done(false));
      res.on('aborted', () => done(false));
    });
    req.on('error', (error) => (req.destroyed ? undefined : reject(error)));
    req.end();
  });
}

interface AppConversation {
  conversation_url: string | null;
  session_api_key: string | null;
}

// Each read of a multi-GiB file in the sandbox (sparse: `truncate -s 3G`) through the service, with the
// service's resident memory sampled in this process (where it runs): no read may hold the file.
// The cases share the workspace's big file and run in the order that sizes each download.
describe.skipIf(dockerSkip !== null)('reading a sandbox file of several GiB', { shuffle: false }, () => {
  let llm: ScriptedLlm;
  let service: TestService;
  let workspace: SandboxWorkspace;
  let conversationId: string;
  let endpoint: { port: number; key: string };

  const sh = async (script: string) => {
    const result = await workspace.exec(['sh', '-c', script]);
    expect(result.exitCode, result.stderr).toBe(0);
  };

  beforeAll(async () => {
    llm = await startScriptedLlm([], { channels: [{ marker: '[dockhand:title]', step: { text: 'Big' } }] });
    service = await startSandboxService();
    await useScriptedModel(service, llm);
    const started = await service.api('POST', '/api/v1/app-conversations', { body: {} });
    const taskId = (started.json as { id: string }).id;
    const task = await until(
      async () =>
        (
          (await service.api('GET', `/api/v1/app-conversations/start-tasks?ids=${taskId}`)).json as {
            status: string;
            app_conversation_id: string;
            sandbox_id: string;
          }[]
        )[0],
      (t) => t?.status === 'READY' || t?.status === 'ERROR',
      'the start task',
    );
    expect(task?.status).toBe('READY');
    conversationId = task?.app_conversation_id as string;
    workspace = await service.service.context.sandboxes.workspace(task?.sandbox_id as string);
    const conversation = await until(
      async () =>
        (
          (await service.api('GET', `/api/v1/app-conversations?ids=${conversationId}`))
            .json as AppConversation[]
        )[0],
      (c) => Boolean(c?.conversation_url),
      'the conversation URL',
    );
    endpoint = {
      port: Number(new URL(conversation?.conversation_url as string).port),
      key: conversation?.session_api_key as string,
    };
    await sh(`truncate -s ${BIG_SIZE} ${BIG}`);
  });

  afterAll(async () => {
    await closeSandboxService(service);
    await llm?.close();
  });

  it('agent-server download: the whole file streams through', async () => {
    const { result, baseline, peak } = await measured('agent-server download, read to the end', (sample) =>
      download(endpoint.port, `/api/file/download?path=${BIG}`, endpoint.key, sample),
    );
    expect(result).toMatchObject({ status: 200, bytes: BIG_SIZE, complete: true });
    expect(result.headers['content-length']).toBe(String(BIG_SIZE));
    expect(peak - baseline).toBeLessThan(MEMORY_BOUND);
  });

  it('agent-server download: a client that stops reading stops the transfer, not the memory', async () => {
    const { result, baseline, peak } = await measured('agent-server download, client stalled', (sample) =>
      download(endpoint.port, `/api/file/download${BIG}`, endpoint.key, sample, {
        bytes: 4 * MiB,
        // Long enough for a service that ignores backpressure to pull GiBs from the sandbox meanwhile.
        stalled: () => new Promise((resolve) => setTimeout(resolve, 3000)),
      }),
    );
    expect(result.status).toBe(200);
    expect(result.complete).toBe(false);
    expect(peak - baseline).toBeLessThan(MEMORY_BOUND);
    // The hang-up ended the transfer: the endpoint answers the next call.
    const again = await measured('agent-server download, 1 MiB then hang-up', (sample) =>
      download(endpoint.port, `/api/file/download?path=${BIG}`, endpoint.key, sample, {
        bytes: MiB,
        stalled: async () => undefined,
      }),
    );
    expect(again.result.status).toBe(200);
  });

  it('agent-server download: HEAD answers the size, with no body', async () => {
    const head = await rawRequest(endpoint.port, 'HEAD', `/api/file/download?path=${BIG}`, {
      key: endpoint.key,
    });
    expect([head.status, head.headers['content-length'], head.text]).toEqual([200, String(BIG_SIZE), '']);
  });

  it('V0 zip download: the file and a hard link to it, counted twice against the cap', async () => {
    await sh(`ln -f ${BIG} ${BIG}-link`);
    try {
      const { result, baseline, peak } = await measured('V0 zip-directory', (sample) =>
        download(service.port, `/api/conversations/${conversationId}/zip-directory`, service.key, sample),
      );
      expect(result.status).toBe(200);
      // 6 GiB of content is over the 4 GiB cap: the zip is cut off once the link's turn comes.
      expect(result.complete).toBe(false);
      expect(peak - baseline).toBeLessThan(MEMORY_BOUND);
    } finally {
      await sh(`rm -f ${BIG}-link`);
    }
  }, 360_000); // reads and compresses 4 GiB: minutes on a busy machine, beyond the suite's default

  it("the editor's view of a file that grew to 3 GiB after it was measured", async () => {
    const file = `${WORKING_DIR}/grows.txt`;
    await sh(`printf 'small\\n' > ${file}`);
    const files: EditorFiles = {
      read: (path, options) => workspace.files.read(path, options),
      write: () => Promise.reject(new Error('no writes here')),
      list: (path) => workspace.files.list(path),
      remove: () => Promise.reject(new Error('no removal here')),
      // The race: the file is measured small, then grows before it is read.
      stat: async (path) => {
        const info = await workspace.files.stat(path);
        if (path === file) await sh(`truncate -s ${BIG_SIZE} ${file}`);
        return info;
      },
    };
    const editor = new Editor(files, service.service.context.editHistory(conversationId), () => WORKING_DIR);
    try {
      const { result, baseline, peak } = await measured("the editor's view", () =>
        editor.run({ command: 'view', path: file }),
      );
      expect(result).toEqual({
        text: 'ERROR:\nFile is too large. Maximum allowed size is 10 MB.',
        isError: true,
      });
      expect(peak - baseline).toBeLessThan(MEMORY_BOUND);
    } finally {
      // The other cases measure the workspace with one big file in it.
      await sh(`rm -f ${file}`);
    }
  });
});
