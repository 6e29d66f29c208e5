/**
 * A long fuzzing run against every route of the service's own OpenAPI document.
 *
 * Starts the harmless fuzz target of test/security/fuzz-target.ts (unreachable Docker engine, fake git
 * providers, loopback-only URLs), sends `--requests` generated requests spread over the routes, and prints
 * the count, the status histogram, each failure (a 5xx, an undocumented status, a badly shaped error body,
 * no answer, or a dead service) with its request, and the seed. Exits with 1 on any failure.
 *
 *   node --import tsx --import ./scripts/lib/raw-import.mjs bench/fuzz.ts [--requests 10000] [--seed N]
 */
import { parseArgs } from 'node:util';
import fc from 'fast-check';
import { anyRequest, describeRequest, type FuzzRequest, judge } from '../test/security/fuzz-requests';
import { startFuzzTarget } from '../test/security/fuzz-target';

const { values } = parseArgs({
  options: {
    requests: { type: 'string', default: '10000' },
    seed: { type: 'string' },
    'huge-string': { type: 'string', default: '2000000' },
  },
});
const total = Number(values.requests);
const seed = values.seed !== undefined ? Number(values.seed) : Date.now() ^ (Math.random() * 2 ** 31);

const target = await startFuzzTarget(Number(values['huge-string']));
const histogram = new Map<number, number>();
const perRoute = new Map<string, number>();
const failures: string[] = [];
const started = Date.now();
const generator = anyRequest(target.operations, target.options);
const BATCH = 100;

try {
  let batch: ReturnType<typeof fc.sample<FuzzRequest>> = [];
  for (let i = 0; i < total; i++) {
    if (i % BATCH === 0) batch = fc.sample(generator, { seed: seed + i / BATCH, numRuns: BATCH });
    const request = batch[i % BATCH] as FuzzRequest;
    const route = `${request.method} ${request.operation.path}`;
    perRoute.set(route, (perRoute.get(route) ?? 0) + 1);
    try {
      const response = await target.call(request);
      histogram.set(response.status, (histogram.get(response.status) ?? 0) + 1);
      const problem = judge(request, response);
      if (problem) failures.push(`#${i} ${problem}\n    ${describeRequest(request)}`);
    } catch (error) {
      failures.push(`#${i} no answer: ${String(error)}\n    ${describeRequest(request)}`);
      if (!(await target.alive())) {
        failures.push(`#${i} the service no longer answers /alive`);
        break;
      }
    }
    if ((i + 1) % 1000 === 0) console.log(`${i + 1} requests, ${failures.length} failures`);
  }
  if (!(await target.alive())) failures.push('the service no longer answers /alive');
} finally {
  await target.close();
}

const seconds = (Date.now() - started) / 1000;
console.log(`\nseed ${seed}`);
console.log(`requests ${total} in ${seconds.toFixed(1)} s over ${perRoute.size} routes`);
console.log(
  `statuses ${[...histogram.entries()]
    .sort(([a], [b]) => a - b)
    .map(([status, count]) => `${status}:${count}`)
    .join(' ')}`,
);
console.log(`failures ${failures.length}`);
for (const failure of failures.slice(0, 50)) console.log(failure);
process.exit(failures.length ? 1 : 0);
