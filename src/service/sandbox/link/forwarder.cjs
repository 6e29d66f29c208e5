'use strict';
// Dockhand's link forwarder. It runs inside a sandbox on the Node runtime Dockhand lends it, with no
// packages, and carries many TCP streams over its stdin/stdout (an exec's stdio, which every Docker engine
// gives, local or remote). It only moves bytes: what a connection may reach is decided by the service.
//
// Frame: type (u8), stream id (u32 BE), payload length (u32 BE), payload (at most 64 KiB).
//   0 CONTROL  JSON: service -> {op:'listen', port}; forwarder -> {op:'ready'|'listening'|'listen_failed'|'ports'}
//   1 OPEN     u16 port: from the service, connect to that port inside the sandbox (even ids); from the
//              forwarder, a connection was accepted on that listening port (odd ids)
//   2 DATA     bytes, within the window the other side granted
//   3 WINDOW   u32: the receiver consumed this many more bytes of the stream
//   4 END      no more data from this side
//   5 RESET    the stream is gone
/* eslint-disable @typescript-eslint/no-require-imports -- a plain CommonJS script for the sandbox's Node */
const net = require('node:net');
const fs = require('node:fs');
/* eslint-enable @typescript-eslint/no-require-imports */

const CONTROL = 0,
  OPEN = 1,
  DATA = 2,
  WINDOW = 3,
  END = 4,
  RESET = 5;
const HEADER = 9;
const MAX_PAYLOAD = 64 * 1024;
// What this side may send on a new stream before the service grants more (link-frames.ts UPLOAD_WINDOW).
const INITIAL_WINDOW = 512 * 1024;
const PORT_SCAN_MS = 400;
// Beside this script, in Dockhand's root-owned folder: the sandbox's user cannot plant a pid here.
const PID_FILE = `${__dirname}/dockhand-link.pid`;

// A forwarder left from before a pause or a restart gives up its ports to this one (only a forwarder).
try {
  const previous = Number(fs.readFileSync(PID_FILE, 'utf8'));
  const command = fs.readFileSync(`/proc/${previous}/cmdline`, 'utf8');
  if (previous > 0 && previous !== process.pid && command.includes('dockhand-link')) {
    process.kill(previous, 'SIGTERM');
  }
} catch {
  // None left, or already gone.
}
try {
  fs.writeFileSync(PID_FILE, String(process.pid));
} catch {
  // Without the file the next forwarder waits for the ports instead.
}

const out = process.stdout;
let outBlocked = false;
const streams = new Map();
const listeners = new Map();
let nextId = 1;

// Header and payload go out together (one writev) without copying the payload.
function send(type, id, payload) {
  const length = payload ? payload.length : 0;
  const header = Buffer.allocUnsafe(HEADER);
  header.writeUInt8(type, 0);
  header.writeUInt32BE(id, 1);
  header.writeUInt32BE(length, 5);
  out.cork();
  let open = out.write(header);
  if (length) open = out.write(payload);
  out.uncork();
  if (!open) outBlocked = true;
}

function control(message) {
  send(CONTROL, 0, Buffer.from(JSON.stringify(message)));
}

function u16(port) {
  const buffer = Buffer.allocUnsafe(2);
  buffer.writeUInt16BE(port, 0);
  return buffer;
}

out.on('drain', () => {
  outBlocked = false;
  for (const stream of streams.values()) stream.flow();
});

function attach(id, socket) {
  const stream = {
    socket,
    credit: INITIAL_WINDOW,
    held: [],
    heldBytes: 0,
    granted: 0,
    grantScheduled: false,
    ended: false,
    remoteEnded: false,
    reset: false,
    // Sends what the window allows; the socket is read again only once everything held has gone.
    flow() {
      while (stream.heldBytes > 0 && stream.credit > 0 && !stream.reset) {
        let piece = stream.held[0];
        const size = Math.min(piece.length, stream.credit, MAX_PAYLOAD);
        if (size < piece.length) {
          stream.held[0] = piece.subarray(size);
          piece = piece.subarray(0, size);
        } else stream.held.shift();
        stream.heldBytes -= size;
        stream.credit -= size;
        send(DATA, id, piece);
      }
      if (stream.heldBytes > 0 || stream.reset) return;
      if (stream.ended && !stream.endSent) {
        stream.endSent = true;
        send(END, id);
      } else if (!outBlocked && socket.isPaused()) socket.resume();
    },
    grant(bytes) {
      stream.granted += bytes;
      if (stream.grantScheduled) return;
      stream.grantScheduled = true;
      setImmediate(() => {
        stream.grantScheduled = false;
        if (stream.reset || !stream.granted) return;
        const credit = Buffer.allocUnsafe(4);
        credit.writeUInt32BE(stream.granted, 0);
        stream.granted = 0;
        send(WINDOW, id, credit);
      });
    },
  };
  streams.set(id, stream);
  socket.setNoDelay(true);
  socket.on('data', (chunk) => {
    stream.held.push(chunk);
    stream.heldBytes += chunk.length;
    socket.pause();
    stream.flow();
  });
  socket.on('end', () => {
    stream.ended = true;
    stream.flow();
  });
  socket.on('error', () => {});
  socket.on('close', () => {
    streams.delete(id);
    if (!stream.reset && !(stream.endSent && stream.remoteEnded)) send(RESET, id);
    stream.reset = true;
  });
  return stream;
}

function listen(port) {
  if (listeners.has(port)) return control({ op: 'listening', port });
  const server = net.createServer({ allowHalfOpen: true, pauseOnConnect: true }, (socket) => {
    const id = nextId;
    nextId += 2;
    attach(id, socket);
    send(OPEN, id, u16(port));
    socket.resume();
  });
  let attempts = 0;
  server.on('error', (error) => {
    // The previous forwarder may still be letting go of the port.
    if (error.code === 'EADDRINUSE' && attempts++ < 20)
      return setTimeout(() => server.listen(port, '127.0.0.1'), 100);
    control({ op: 'listen_failed', port, error: String(error.message || error) });
  });
  server.listen(port, '127.0.0.1', () => {
    listeners.set(port, server);
    control({ op: 'listening', port });
  });
}

// Attached at once: data the service sends before the connection is made waits in the socket.
function connect(id, port) {
  attach(id, net.connect({ host: loopbackOf(port), port, allowHalfOpen: true }));
}

function onData(id, payload) {
  const stream = streams.get(id);
  if (stream) stream.socket.write(payload, () => stream.grant(payload.length));
}

function onFrame(type, id, payload) {
  if (type === CONTROL) {
    const message = JSON.parse(payload.toString('utf8'));
    if (message.op === 'listen') listen(message.port);
    return;
  }
  if (type === OPEN) return connect(id, payload.readUInt16BE(0));
  const stream = streams.get(id);
  if (!stream) return;
  if (type === WINDOW) {
    stream.credit += payload.readUInt32BE(0);
    stream.flow();
  } else if (type === END) {
    stream.remoteEnded = true;
    stream.socket.end();
  } else if (type === RESET) {
    stream.reset = true;
    stream.socket.destroy();
  }
}

// Frames are read as they come: a DATA payload goes to its socket piece by piece (no copy, no wait for the
// whole frame); the small frames are gathered first.
let header = Buffer.alloc(0);
let current = null;
process.stdin.on('data', (chunk) => {
  let offset = 0;
  while (offset < chunk.length) {
    if (!current) {
      const part = chunk.subarray(offset, offset + HEADER - header.length);
      header = header.length ? Buffer.concat([header, part]) : part;
      offset += part.length;
      if (header.length < HEADER) break;
      current = {
        type: header.readUInt8(0),
        id: header.readUInt32BE(1),
        remaining: header.readUInt32BE(5),
        parts: [],
      };
      header = Buffer.alloc(0);
    }
    const piece = chunk.subarray(offset, offset + current.remaining);
    offset += piece.length;
    current.remaining -= piece.length;
    if (current.type === DATA) {
      if (piece.length > 0) onData(current.id, piece);
    } else if (piece.length > 0) current.parts.push(piece);
    if (current.remaining === 0) {
      if (current.type !== DATA) onFrame(current.type, current.id, Buffer.concat(current.parts));
      current = null;
    }
  }
});
// The service ended the link (or lost the exec): everything goes with it.
process.stdin.on('end', () => process.exit(0));
process.stdout.on('error', () => process.exit(0));

// Listening TCP sockets of the sandbox, any address: [port, whether only IPv6 loopback (::1) takes it].
function listeningSockets() {
  const sockets = [];
  for (const file of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text;
    try {
      text = fs.readFileSync(file, 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n').slice(1)) {
      const fields = line.trim().split(/\s+/);
      if (fields[3] !== '0A') continue;
      const [address, port] = fields[1].split(':');
      sockets.push([parseInt(port, 16), address === '00000000000000000000000001000000']);
    }
  }
  return sockets;
}

// The loopback address a port is reached on: 127.0.0.1 unless only ::1 listens on it.
function loopbackOf(port) {
  const mine = listeningSockets().filter(([listening]) => listening === port);
  return mine.length > 0 && mine.every(([, v6Loopback]) => v6Loopback) ? '::1' : '127.0.0.1';
}

// The ports for the preview (the forwarder's own left out).
function listeningPorts() {
  const ports = new Set(
    listeningSockets()
      .map(([port]) => port)
      .filter((port) => !listeners.has(port)),
  );
  return [...ports].sort((a, b) => a - b);
}

let reported = '';
setInterval(() => {
  const ports = listeningPorts();
  const key = ports.join(',');
  if (key === reported) return;
  reported = key;
  control({ op: 'ports', ports });
}, PORT_SCAN_MS).unref();

control({ op: 'ready' });
