import Docker from 'dockerode';
import pino from 'pino';
import { mkdtempSync } from 'node:fs';
import os from 'node:os'; import path from 'node:path';
import { createService } from './src/service/index';
import { MemorySecretStore } from './src/service/secrets/memory-store';
const marks: [string, number][] = [];
const mark = (n: string) => marks.push([n, performance.now()]);
const proto = Docker.Container.prototype as any;
for (const m of ['start', 'exec', 'inspect']) { const o = proto[m]; proto[m] = async function (...a: any[]) { mark(m + '>'); const r = await o.apply(this, a); mark('<' + m); return r; }; }
const dp = Docker.prototype as any;
for (const m of ['createContainer', 'ping', 'version']) { const o = dp[m]; dp[m] = async function (...a: any[]) { mark(m + '>'); const r = await o.apply(this, a); mark('<' + m); return r; }; }
const ip = (Docker as any).Image.prototype; { const o = ip.inspect; ip.inspect = async function (...a: any[]) { mark('img>'); const r = await o.apply(this, a); mark('<img'); return r; }; }
const service = await createService({ dataDir: mkdtempSync(path.join(os.tmpdir(), 'inst-')), port: 0, logger: pino({level:'silent'}), secretStore: new MemorySecretStore(), sandbox: { image: 'dockhand/sandbox:1.0.0', network: 'none', idlePauseSeconds: 0 } });
for (let i = 0; i < 3; i++) {
  marks.length = 0;
  const t0 = performance.now(); mark('POST>');
  const r = await fetch(`${service.url}/api/v1/sandboxes`, { method: 'POST', headers: { 'X-Session-API-Key': service.context.sessionKey.current } });
  mark('<POST');
  const { id } = await r.json() as any;
  await service.context.sandboxes.settled(id); mark('settled');
  console.log(marks.map(([n, t]) => `${n}@${(t - t0).toFixed(0)}`).join(' '));
  await service.context.sandboxes.delete(id);
}
await service.close();
