import { request as httpRequest } from 'node:http';
import { io as ioClient } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConversationStore } from '../../src/service/conversations/conversation-store';
import { EventLog } from '../../src/service/events/event-log';
import { SecretMasker } from '../../src/service/events/secret-masker';
import { openDatabase } from '../../src/service/storage/database';
import { startTestService, tempDataDir, type TestService } from '../support/service';
import { blankConversation } from '../support/conversation-records';

const COUNT = 3000;
const OUTPUT = 'x'.repeat(2000);

/** A stopped conversation of COUNT events (about 6 MiB) written straight into a data folder. */
function buildDataFolder(dataDir: string): void {
  const db = openDatabase(dataDir);
  new ConversationStore(db).insert(
    blankConversation('big', { title: 'Big', titleIsCustom: true, agentState: 'awaiting_user_input' }),
  );
  const log = new EventLog(db);
  const masker = new SecretMasker([]);
  db.transaction(() => {
    for (let i = 0; i < COUNT; i++) {
      if (i % 1000 === 0)
        log.append(
          'big',
          {
            source: 'environment',
            message: '',
            observation: 'agent_state_changed',
            content: '',
            extras: { agent_state: `s${i}`, reason: '' },
          },
          masker,
        );
      else
        log.append(
          'big',
          { source: 'agent', message: `output ${i}`, observation: 'run', content: OUTPUT, extras: {} },
          masker,
        );
    }
  })();
  db.close();
}

describe('replay of a long conversation to a new client', () => {
  let service: TestService;

  beforeAll(async () => {
    const dataDir = tempDataDir();
    buildDataFolder(dataDir);
    service = await startTestService({ dataDir, sandbox: { provider: 'process', idlePauseSeconds: 0 } });
    // Without an LLM key the start a socket asks for stops at once; the replay does not depend on it.
    await service.service.context.settings.save({ llm_model: 'openai/gpt-4o' });
  });

  afterAll(async () => {
    await service?.close();
  });

  it('sends every event over SSE, many MiB more than a slow client may leave unread', async () => {
    const ids = await new Promise<number[]>((resolve, reject) => {
      const seen: number[] = [];
      httpRequest({
        host: '127.0.0.1',
        port: service.port,
        path: '/api/conversations/big/events/stream',
        headers: { 'X-Session-API-Key': service.key },
      })
        .on('response', (res) => {
          let tail = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => {
            const frames = (tail + chunk).split('\n\n');
            tail = frames.pop() ?? '';
            for (const frame of frames) {
              const id = /^id: (\d+)/.exec(frame)?.[1];
              if (id) seen.push(Number(id));
              if (frame.startsWith('event: replay_done')) {
                expect(frame).toBe(`event: replay_done\ndata: {"last_event_id":${COUNT - 1}}`);
                res.destroy();
                resolve(seen);
              }
            }
          });
          res.on('end', () => reject(new Error(`the stream ended after ${seen.length} events`)));
        })
        .on('error', reject)
        .end();
    });
    expect(ids).toEqual(Array.from({ length: COUNT }, (_, i) => i));
  });

  it('replays over socket.io in order, the last agent state after the rest', async () => {
    const ids = await new Promise<number[]>((resolve, reject) => {
      const seen: number[] = [];
      const socket = ioClient(service.url, {
        query: { conversation_id: 'big', latest_event_id: '-1', session_api_key: service.key },
        transports: ['websocket'],
        reconnection: false,
      });
      socket.on('connect_error', reject);
      socket.on('oh_event', (event: { id?: number }) => {
        if (typeof event.id !== 'number') return;
        seen.push(event.id);
        if (event.id === 2000) {
          socket.close();
          resolve(seen);
        }
      });
    });
    const others = Array.from({ length: COUNT }, (_, i) => i).filter((i) => i % 1000 !== 0);
    expect(ids).toEqual([...others, 2000]);
  });
});
