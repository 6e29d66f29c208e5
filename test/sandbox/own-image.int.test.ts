import { randomBytes } from 'node:crypto';
import path from 'node:path';
import pino from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { DockerImages } from '../../src/service/sandbox/docker/docker-images';
import { DockerConnection } from '../../src/service/sandbox/docker/docker-status';
import type { OwnImage } from '../../src/service/sandbox/docker/own-image';
import { SandboxFailure } from '../../src/service/sandbox/sandbox-models';
import { freePort } from '../support/ports';
import { docker, dockerSkipReason } from './support';

/** Dockhand's own image as `npm run sandbox:image` built it: what the default falls back to. */
const OWN = 'dockhand/sandbox:1.0.0';
const BUILD_SCRIPT = path.resolve(import.meta.dirname, '../../scripts/sandbox-image.sh');
/** A base the build script finds without a registry; without one it would make it with debootstrap (~3 min). */
const CACHED_BASES = ['dockhand/sandbox-base:bookworm', 'debian:bookworm-slim'];

async function present(image: string): Promise<boolean> {
  return docker
    .getImage(image)
    .inspect()
    .then(
      () => true,
      () => false,
    );
}

const skip =
  (await dockerSkipReason()) ??
  ((await present(OWN)) ? null : `${OWN} is missing (run \`npm run sandbox:image\`)`);
if (skip) console.warn(`Skipping the own-image tests: ${skip}`);
const baseCached = (await Promise.all(CACHED_BASES.map(present))).some(Boolean);
if (!skip && !baseCached)
  console.warn(
    `Skipping the own-image build test: no cached base (${CACHED_BASES.join(', ')}) to build from`,
  );

describe.skipIf(skip !== null)('Dockhand’s own image stands in for one that cannot be pulled', () => {
  const connection = new DockerConnection({ env: process.env });
  const signal = new AbortController().signal;
  const created: string[] = [];
  let unpullable: string;

  function images(own: OwnImage) {
    const notices: string[] = [];
    const target = new DockerImages(connection, 'own-image-test', own, pino({ level: 'silent' }));
    target.onNotice(unpullable, (message) => notices.push(message));
    return { target, notices };
  }

  afterAll(async () => {
    // Only the tags this file made: the image they name is also tagged 1.0.0 and stays.
    for (const tag of created)
      await docker
        .getImage(tag)
        .remove({ noprune: true })
        .catch(() => undefined);
  });

  it('uses the own image, present, without building it', async () => {
    // A registry on a closed loopback port: the pull fails at once, as with no registry at all.
    unpullable = `127.0.0.1:${await freePort()}/dockhand/unpullable:1`;
    const { target, notices } = images({ name: OWN, buildScript: null });

    expect(await target.available(unpullable, signal)).toBe(OWN);
    expect(notices).toEqual([
      expect.stringMatching(
        /^127\.0\.0\.1:\d+\/dockhand\/unpullable:1 could not be pulled \(.+\); using Dockhand's own image dockhand\/sandbox:1\.0\.0$/,
      ),
    ]);
    expect(target.progress(unpullable)).toBeNull();
    // A present image is used as it is, never pulled or replaced.
    expect(await target.available(OWN, signal)).toBe(OWN);
  });

  it.skipIf(!baseCached)(
    'builds the own image when it is missing too, with progress, once for all waiters',
    async () => {
      const tag = `dockhand/sandbox:test-${randomBytes(4).toString('hex')}`;
      created.push(tag);
      const { target, notices } = images({ name: tag, buildScript: BUILD_SCRIPT });
      const progress: string[] = [];
      const watch = setInterval(() => {
        const now = target.progress(unpullable);
        if (now) progress.push(now.state);
      }, 20);

      const [first, second] = await Promise.all([
        target.available(unpullable, signal),
        target.available(unpullable, signal),
      ]);
      clearInterval(watch);

      expect([first, second]).toEqual([tag, tag]);
      expect(await present(tag)).toBe(true);
      expect(notices[0]).toMatch(
        /could not be pulled .*; using Dockhand's own image dockhand\/sandbox:test-\w+, built first$/,
      );
      expect(notices).toContain(`Building the sandbox image ${tag}: step 8 of 8`);
      expect(notices.filter((n) => n.endsWith('step 1 of 8'))).toHaveLength(1);
      expect(progress).toContain('building');
      expect(target.progress(unpullable)).toBeNull();
      // The build is the same one `npm run sandbox:image` made: the layers come from its cache.
      const [own, built] = await Promise.all([
        docker.getImage(OWN).inspect(),
        docker.getImage(tag).inspect(),
      ]);
      expect(built.Id).toBe(own.Id);
    },
  );

  it('fails with the fix when the own image is missing and cannot be built', async () => {
    const tag = `dockhand/sandbox:absent-${randomBytes(4).toString('hex')}`;
    const { target } = images({ name: tag, buildScript: null });

    const failure = await target.available(unpullable, signal).catch((error: unknown) => error);

    expect(failure).toBeInstanceOf(SandboxFailure);
    expect((failure as Error).message).toMatch(
      /^Image 127\.0\.0\.1:\d+\/dockhand\/unpullable:1 could not be pulled \(.+\), and Dockhand's own image dockhand\/sandbox:absent-\w+ could not be built: .*Build it with `npm run sandbox:image`/,
    );
    expect(target.progress(unpullable)).toMatchObject({ state: 'failed' });
  });
});
