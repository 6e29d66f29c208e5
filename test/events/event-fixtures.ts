import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { V0Event } from '../../src/shared/api/events';

export const FIXTURES_DIR = path.join(import.meta.dirname, 'fixtures');

/** One conversation's events as each wire format gave them (recorded by `record-fixtures.ts`). */
export interface EventFixture {
  conversationId: string;
  v0: V0Event[];
  sse: V0Event[];
  socketio: Record<string, unknown>[];
  v1: Record<string, unknown>[];
  sdk: Record<string, unknown>[];
}

/** The names of the recorded fixtures. */
export const FIXTURES = readdirSync(FIXTURES_DIR).filter((file) => file.endsWith('.json'));

export function readFixture(file: string): EventFixture {
  return JSON.parse(readFileSync(path.join(FIXTURES_DIR, file), 'utf8')) as EventFixture;
}
