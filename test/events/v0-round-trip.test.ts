import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { fromV0, toV0 } from '../../src/service/events/model/v0-codec';
import type { V0Event } from '../../src/shared/api/events';

const dir = path.join(import.meta.dirname, 'fixtures');
const fixtures = readdirSync(dir).filter((f) => f.endsWith('.json'));

describe.each(fixtures)('%s', (file) => {
  const fixture = JSON.parse(readFileSync(path.join(dir, file), 'utf8')) as { v0: V0Event[] };
  it('maps V0 to the model and back unchanged, with no event left unmodelled', () => {
    const internal = fixture.v0.map(fromV0);
    expect(internal.filter((e) => e.kind === 'legacy')).toEqual([]);
    expect(internal.map(toV0)).toEqual(fixture.v0);
  });
});
