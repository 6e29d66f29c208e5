import http from 'node:http';
import net from 'node:net';
import type { Duplex } from 'node:stream';
import type { EgressDecision } from './egress-gate';
import type { EgressTarget } from './egress-policy';

/** Decides a connection and records the decision (the link's owner logs it and tells the conversation). */
export type EgressCheck = (target: EgressTarget) => Promise<EgressDecision>;

/** Headers meant for the proxy, never passed on. */
const HOP_HEADERS = ['proxy-connection', 'proxy-authorization', 'proxy-authenticate'];

function refusal(decision: EgressDecision): string {
  return (
    `Dockhand refused the connection to ${decision.host}:${decision.port} (${decision.rule}). ` +
    `Allow it in the conversation or in Settings > Sandboxes > Network.\n`
  );
}

/** `host:port` of a CONNECT request, or null. */
export function connectTarget(authority: string | undefined): EgressTarget | null {
  if (!authority) return null;
  const match = /^(\[[^\]]+\]|[^:]+):(\d{1,5})$/.exec(authority);
  const port = Number(match?.[2]);
  if (!match?.[1] || !(port > 0 && port < 65536)) return null;
  return { host: match[1].replace(/^\[|\]$/g, ''), port };
}

/**
 * The HTTP proxy a gated sandbox's HTTP_PROXY/HTTPS_PROXY name, served on the link's streams (the proxy
 * port inside the sandbox): CONNECT tunnels and absolute-URL requests, each checked before it is dialled.
 * A refusal answers 403 with the rule, so the tool that tried says why.
 */
export function createEgressProxy(check: EgressCheck): { serve(stream: Duplex): void; close(): void } {
  const server = http.createServer();
  const upstreams = new Set<net.Socket>();
  const track = (socket: net.Socket) => {
    // A kept-alive socket comes back for the next request: tracked once.
    if (upstreams.has(socket)) return socket;
    upstreams.add(socket);
    socket.once('close', () => upstreams.delete(socket));
    return socket;
  };

  server.on('connect', (request: http.IncomingMessage, client: Duplex, head: Buffer) => {
    client.on('error', () => undefined);
    const target = connectTarget(request.url);
    if (!target) {
      client.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n');
      return;
    }
    void check(target).then(
      (decision) => {
        if (!decision.allowed || !decision.address) {
          const body = refusal(decision);
          client.end(
            `HTTP/1.1 403 Forbidden\r\nContent-Type: text/plain\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
              `Connection: close\r\n\r\n${body}`,
          );
          return;
        }
        const upstream = track(net.connect({ host: decision.address, port: target.port }));
        upstream.setNoDelay(true);
        upstream.once('connect', () => {
          client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
          if (head.length > 0) upstream.write(head);
          upstream.pipe(client);
          client.pipe(upstream);
        });
        upstream.on('error', () => {
          if (!upstream.readyState || upstream.connecting) {
            client.end('HTTP/1.1 502 Bad Gateway\r\nConnection: close\r\n\r\n');
          } else client.destroy();
        });
        client.once('close', () => upstream.destroy());
      },
      () => client.destroy(),
    );
  });

  server.on('request', (request: http.IncomingMessage, response: http.ServerResponse) => {
    let url: URL;
    try {
      url = new URL(request.url ?? '');
    } catch {
      response.writeHead(400, { 'Content-Type': 'text/plain' }).end('The proxy takes absolute URLs.\n');
      return;
    }
    if (url.protocol !== 'http:') {
      response.writeHead(400, { 'Content-Type': 'text/plain' }).end('Use CONNECT for this scheme.\n');
      return;
    }
    const target = { host: url.hostname.replace(/^\[|\]$/g, ''), port: Number(url.port || 80) };
    void check(target).then(
      (decision) => {
        if (!decision.allowed || !decision.address) {
          response.writeHead(403, { 'Content-Type': 'text/plain' }).end(refusal(decision));
          return;
        }
        const headers = Object.fromEntries(
          Object.entries(request.headers).filter(([name]) => !HOP_HEADERS.includes(name)),
        );
        const upstream = http.request({
          host: decision.address,
          port: target.port,
          method: request.method,
          path: `${url.pathname}${url.search}`,
          headers,
          setHost: false,
        });
        upstream.on('socket', (socket) => track(socket));
        upstream.on('response', (answer) => {
          response.writeHead(answer.statusCode ?? 502, answer.rawHeaders);
          answer.pipe(response);
        });
        upstream.on('error', () => {
          if (!response.headersSent) response.writeHead(502, { 'Content-Type': 'text/plain' });
          response.end();
        });
        request.pipe(upstream);
      },
      () => response.destroy(),
    );
  });
  server.on('clientError', (_error, socket: Duplex) => socket.destroy());

  return {
    serve: (stream) => server.emit('connection', stream),
    close: () => {
      for (const socket of upstreams) socket.destroy();
      server.close();
    },
  };
}
