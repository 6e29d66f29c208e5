import { describe, expect, it } from 'vitest';
import type { SandboxSpec } from '../sandbox-models';
import { BUILT_IN_IMAGE, INITIAL_ENV, WORKING_DIR } from '../sandbox-specs';
import { planPool, type PooledContainer, specKey } from './warm-pool-plan';

const spec: SandboxSpec = {
  id: BUILT_IN_IMAGE,
  command: ['sleep', 'infinity'],
  initialEnv: INITIAL_ENV,
  workingDir: WORKING_DIR,
  title: 'Built-in',
  description: '',
};
const target = { key: specKey(spec), imageId: 'sha256:one' };

function container(id: string, changes: Partial<PooledContainer> = {}): PooledContainer {
  return { id, containerId: `c-${id}`, key: target.key, imageId: target.imageId, ...changes };
}

describe('planPool', () => {
  it('makes containers up to the size and keeps the ones that fit', () => {
    expect(planPool({ size: 2, target, ready: [] })).toEqual({ discard: [], create: 2 });
    const ready = [container('a')];
    expect(planPool({ size: 2, target, ready })).toEqual({ discard: [], create: 1 });
    expect(planPool({ size: 1, target, ready })).toEqual({ discard: [], create: 0 });
  });

  it('removes what is beyond the size, all of it when the pool is off', () => {
    const [a, b] = [container('a'), container('b')];
    expect(planPool({ size: 1, target, ready: [a, b] })).toEqual({ discard: [b], create: 0 });
    expect(planPool({ size: 0, target, ready: [a, b] })).toEqual({ discard: [a, b], create: 0 });
  });

  it('replaces containers of another spec or another image', () => {
    const otherSpec = container('a', { key: specKey({ ...spec, id: 'other/image:1' }) });
    const otherImage = container('b', { imageId: 'sha256:rebuilt' });
    const current = container('c');
    expect(planPool({ size: 2, target, ready: [otherSpec, otherImage, current] })).toEqual({
      discard: [otherSpec, otherImage],
      create: 1,
    });
  });

  it('tells specs apart by everything a container is made from', () => {
    expect(specKey({ ...spec, title: 'renamed' })).toBe(specKey(spec));
    expect(specKey({ ...spec, initialEnv: { LANG: 'C' } })).not.toBe(specKey(spec));
    expect(specKey({ ...spec, workingDir: '/workspace' })).not.toBe(specKey(spec));
  });

  it('removes everything and makes nothing without a target (image absent, Docker gone)', () => {
    const a = container('a');
    expect(planPool({ size: 1, target: null, ready: [a] })).toEqual({ discard: [a], create: 0 });
  });
});
