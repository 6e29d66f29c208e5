import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestService, type TestService } from '../support/service';

describe('a large malformed JSON body is located in one pass, not by re-parsing it again and again', () => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startTestService();
  });
  afterAll(async () => {
    await svc.close();
  });

  it('parses the body once and names the offset of the bad token', async () => {
    // About 9 MiB of valid JSON, then a token V8 names without a position.
    const valid = `{"language": "en", "padding": [${'"xxxxxxxxxxxxxxxx",'.repeat(500_000)}`;
    const body = `${valid}x]}`;
    const parse = vi.spyOn(JSON, 'parse');
    try {
      const response = await svc.api('POST', '/api/settings', {
        rawBody: body,
        headers: { 'Content-Type': 'application/json' },
      });
      expect(response.status).toBe(422);
      expect(response.json).toMatchObject({
        detail: [{ type: 'json_invalid', loc: ['body', valid.length] }],
      });
      const largeParses = parse.mock.calls.filter(([text]) => typeof text === 'string' && text.length > 1e6);
      expect(largeParses).toHaveLength(1);
    } finally {
      parse.mockRestore();
    }
  });
});
