import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startTestService, type TestResponse, type TestService } from '../support/service';

function outcome(response: TestResponse) {
  return { status: response.status, body: response.json };
}

const CREATED = { status: 201, body: { message: 'Secret created successfully' } };

describe('custom secrets (/api/secrets)', () => {
  let svc: TestService;
  const list = async () => outcome(await svc.api('GET', '/api/secrets'));
  const create = async (body: unknown) => outcome(await svc.api('POST', '/api/secrets', { body }));

  beforeEach(async () => {
    svc = await startTestService();
  });
  afterEach(async () => {
    await svc.close();
  });

  it('creates, lists (never values), renames, re-describes and deletes a secret', async () => {
    expect(await list()).toEqual({ status: 200, body: { custom_secrets: [] } });
    expect(await create({ name: 'MY_TOKEN', value: 's3cr3t-v4lue', description: 'for the API' })).toEqual(
      CREATED,
    );
    expect(await create({ name: '_other', value: 'v' })).toEqual(CREATED);

    const listed = await svc.api('GET', '/api/secrets');
    expect(outcome(listed)).toEqual({
      status: 200,
      body: {
        custom_secrets: [
          { name: 'MY_TOKEN', description: 'for the API' },
          { name: '_other', description: null },
        ],
      },
    });
    expect(listed.text).not.toContain('s3cr3t-v4lue');

    expect(
      outcome(
        await svc.api('PUT', '/api/secrets/MY_TOKEN', { body: { name: 'API_TOKEN', description: null } }),
      ),
    ).toEqual({ status: 200, body: { message: 'Secret updated successfully' } });
    expect(await svc.service.context.customSecrets.values()).toEqual({
      API_TOKEN: 's3cr3t-v4lue',
      _other: 'v',
    });

    expect(
      outcome(
        await svc.api('PUT', '/api/secrets/API_TOKEN', { body: { name: 'API_TOKEN', description: 'd2' } }),
      ),
    ).toEqual({ status: 200, body: { message: 'Secret updated successfully' } });
    expect((await list()).body).toEqual({
      custom_secrets: [
        { name: 'API_TOKEN', description: 'd2' },
        { name: '_other', description: null },
      ],
    });

    expect(outcome(await svc.api('DELETE', '/api/secrets/API_TOKEN'))).toEqual({
      status: 200,
      body: { message: 'Secret deleted successfully' },
    });
    expect(outcome(await svc.api('DELETE', '/api/secrets/API_TOKEN'))).toEqual({
      status: 404,
      body: { detail: 'Secret with ID API_TOKEN not found' },
    });
    expect(await svc.service.context.secrets.get('secret:API_TOKEN')).toBeNull();
    expect((await list()).body).toEqual({ custom_secrets: [{ name: '_other', description: null }] });
  });

  it('answers 409 for a duplicate name, on create and on rename', async () => {
    expect(await create({ name: 'A', value: '1' })).toEqual(CREATED);
    expect(await create({ name: 'B', value: '2' })).toEqual(CREATED);
    expect(await create({ name: 'A', value: 'other' })).toEqual({
      status: 409,
      body: { detail: 'Secret A already exists' },
    });
    expect(outcome(await svc.api('PUT', '/api/secrets/A', { body: { name: 'B' } }))).toEqual({
      status: 409,
      body: { detail: 'Secret B already exists' },
    });
    expect(await svc.service.context.customSecrets.values()).toEqual({ A: '1', B: '2' });
  });

  it('answers 404 for unknown and malformed ids', async () => {
    expect(outcome(await svc.api('PUT', '/api/secrets/NOPE', { body: { name: 'NOPE' } }))).toEqual({
      status: 404,
      body: { detail: 'Secret with ID NOPE not found' },
    });
    expect(outcome(await svc.api('DELETE', '/api/secrets/NOPE'))).toEqual({
      status: 404,
      body: { detail: 'Secret with ID NOPE not found' },
    });
    expect((await svc.api('DELETE', '/api/secrets/%E0%A4%A')).status).toBe(404);
  });

  it('validates names, values and descriptions', async () => {
    const pattern = '^[A-Za-z_][A-Za-z0-9_]{0,63}$';
    const cases: [unknown, unknown[]][] = [
      [
        { name: '1BAD', value: 'v' },
        [
          {
            type: 'string_pattern_mismatch',
            loc: ['body', 'name'],
            msg: `String should match pattern '${pattern}'`,
            input: '1BAD',
            ctx: { pattern },
          },
        ],
      ],
      [
        { name: 'GITHUB_TOKEN', value: 'v' },
        [
          {
            type: 'value_error',
            loc: ['body', 'name'],
            msg: 'Value error, GITHUB_TOKEN is reserved for git provider tokens',
            input: 'GITHUB_TOKEN',
          },
        ],
      ],
      [
        { name: 'A', value: '' },
        [
          {
            type: 'string_too_short',
            loc: ['body', 'value'],
            msg: 'String should have at least 1 character',
            input: '',
            ctx: { min_length: 1 },
          },
        ],
      ],
      [
        { name: 'A', value: 'v', description: 'd'.repeat(501) },
        [
          {
            type: 'string_too_long',
            loc: ['body', 'description'],
            msg: 'String should have at most 500 characters',
            input: 'd'.repeat(501),
            ctx: { max_length: 500 },
          },
        ],
      ],
      [{ name: 'A' }, [{ type: 'missing', loc: ['body', 'value'], msg: 'Field required', input: null }]],
      [
        { name: 'A', value: 'v', colour: 'red' },
        [
          {
            type: 'extra_forbidden',
            loc: ['body', 'colour'],
            msg: 'Extra inputs are not permitted',
            input: 'red',
          },
        ],
      ],
      [
        { name: 7, value: ['v'] },
        [
          { type: 'string_type', loc: ['body', 'name'], msg: 'Input should be a valid string', input: 7 },
          {
            type: 'string_type',
            loc: ['body', 'value'],
            msg: 'Input should be a valid string',
            input: ['v'],
          },
        ],
      ],
    ];
    for (const [body, detail] of cases) {
      expect(await create(body), JSON.stringify(body).slice(0, 80)).toEqual({
        status: 422,
        body: { detail },
      });
    }
    const tooLong = await create({ name: 'A', value: 'v'.repeat(65_537) });
    expect(tooLong.status).toBe(422);
    expect((tooLong.body as { detail: { type: string; ctx: unknown }[] }).detail[0]).toMatchObject({
      type: 'string_too_long',
      ctx: { max_length: 65_536 },
    });
    expect(await create({ name: 'A', value: 'v'.repeat(65_536) })).toEqual(CREATED);
    expect(outcome(await svc.api('PUT', '/api/secrets/A', { body: { name: 'A', value: 'new' } }))).toEqual({
      status: 422,
      body: {
        detail: [
          {
            type: 'extra_forbidden',
            loc: ['body', 'value'],
            msg: 'Extra inputs are not permitted',
            input: 'new',
          },
        ],
      },
    });
  });

  it('stores at most 200 secrets', async () => {
    for (let i = 0; i < 200; i += 1) {
      expect(await create({ name: `S${i}`, value: `v${i}` })).toEqual(CREATED);
    }
    expect(await create({ name: 'ONE_MORE', value: 'v' })).toEqual({
      status: 422,
      body: {
        detail: [
          {
            type: 'value_error',
            loc: ['body', 'name'],
            msg: 'Value error, at most 200 secrets can be stored',
            input: 'ONE_MORE',
          },
        ],
      },
    });
  });
});
