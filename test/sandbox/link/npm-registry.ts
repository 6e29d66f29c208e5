import { createHash } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { pack } from 'tar-stream';

/** The one package the registry serves. */
export const PACKAGE = { name: 'dockhand-link-fixture', version: '1.0.0' };

async function tarball(): Promise<Buffer> {
  const archive = pack();
  archive.entry(
    { name: 'package/package.json' },
    JSON.stringify({ name: PACKAGE.name, version: PACKAGE.version, main: 'index.js' }),
  );
  archive.entry({ name: 'package/index.js' }, "module.exports = 'installed through the link';\n");
  archive.finalize();
  const chunks: Buffer[] = [];
  for await (const chunk of archive) chunks.push(chunk as Buffer);
  return gzipSync(Buffer.concat(chunks));
}

/**
 * A tiny npm registry on 127.0.0.1 serving one package, whose tarball URL names `host` (the name the
 * sandbox knows the registry by). `requests` counts what it served.
 */
export async function startNpmRegistry(host: string) {
  const tgz = await tarball();
  const tarballPath = `/${PACKAGE.name}/-/${PACKAGE.name}-${PACKAGE.version}.tgz`;
  let port = 0;
  const served: string[] = [];
  const server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://x').pathname;
    served.push(path);
    if (path === `/${PACKAGE.name}`) {
      const version = {
        name: PACKAGE.name,
        version: PACKAGE.version,
        dist: {
          tarball: `http://${host}:${port}${tarballPath}`,
          shasum: createHash('sha1').update(tgz).digest('hex'),
          integrity: `sha512-${createHash('sha512').update(tgz).digest('base64')}`,
        },
      };
      response.writeHead(200, { 'Content-Type': 'application/json' });
      response.end(
        JSON.stringify({
          name: PACKAGE.name,
          'dist-tags': { latest: PACKAGE.version },
          versions: { [PACKAGE.version]: version },
        }),
      );
    } else if (path === tarballPath) {
      response.writeHead(200, { 'Content-Type': 'application/octet-stream' }).end(tgz);
    } else {
      response.writeHead(404, { 'Content-Type': 'application/json' }).end('{"error":"not found"}');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
  return {
    port,
    served,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
