import { describe, expect, it } from 'vitest';
import { parseStreamLine } from '../src/protocol/index.js';
import { DEMO } from '../src/server/config.js';
import { demoApp, userMessage } from './helpers/server.js';

/** mulberry32: a tiny seeded PRNG, so a failing case can be replayed from its number. */
function random(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n: number) => Math.floor(next() * n);
  const pick = <T>(list: readonly T[]): T => list[int(list.length)]!;
  return { next, int, pick };
}

export const FUZZ_SEED = 20261122;
export const FUZZ_CASES = 3000;

type Rng = ReturnType<typeof random>;

const UNICODE = [
  'é',
  '字',
  '🙂',
  '\u200b',
  '\u202e',
  '\ud800',
  '\u0000',
  'ß',
  'İ',
  'ﷺ',
  '\u0301',
  '🏳️‍🌈',
];

function text(rng: Rng): string {
  switch (rng.int(8)) {
    case 0:
      return 'How do I install it?';
    case 1:
      return Array.from({ length: 1 + rng.int(30) }, () =>
        rng.pick([
          'install',
          'theme',
          'export',
          'the',
          'a',
          'static',
          'key',
          'v1',
          'fr',
          '<script>',
          '"',
          '\\',
        ]),
      ).join(' ');
    case 2:
      return Array.from({ length: 1 + rng.int(200) }, () => rng.pick(UNICODE)).join('');
    case 3:
      // The long-word family of issue #10 (kept short enough that the suite stays quick).
      return rng
        .pick(['i', 'a', 'x', 'é', '字'])
        .repeat(rng.next() < 0.2 ? 60_000 + rng.int(60_000) : 1000 + rng.int(20_000));
    case 4:
      return Array.from({ length: 50 + rng.int(2000) }, (_, i) => `w${i}${rng.pick(UNICODE)}`).join(
        ' ',
      );
    case 5:
      return '';
    case 6:
      return String.fromCharCode(...Array.from({ length: rng.int(300) }, () => rng.int(0x3000)));
    default:
      return rng.pick([
        '   ',
        '\n\n',
        '?',
        '../../etc/passwd',
        '%00',
        '{{7*7}}',
        '${jndi:x}',
        "' OR 1=1 --",
      ]);
  }
}

function value(rng: Rng, depth = 0): unknown {
  switch (rng.int(depth > 2 ? 6 : 8)) {
    case 0:
      return null;
    case 1:
      return rng.next() < 0.5;
    case 2:
      return rng.pick([0, -1, 1e308, -0, 3.5, 2 ** 53, 50, 51, 5]);
    case 3:
      return text(rng);
    case 4:
      return undefined;
    case 5:
      return rng.pick(['', 'x'.repeat(300), '01JD8X3K2M0000000000000000', 'en', 'v1']);
    case 6:
      return Array.from({ length: rng.int(4) }, () => value(rng, depth + 1));
    default:
      return Object.fromEntries(
        Array.from({ length: rng.int(4) }, () => [
          rng.pick(['type', 'value', 'text', 'role', 'id', '__proto__', 'constructor']),
          value(rng, depth + 1),
        ]),
      );
  }
}

/** A request body: mostly a valid question with one or two fields broken, sometimes garbage. */
function body(rng: Rng): string | Uint8Array<ArrayBuffer> {
  const r = rng.int(10);
  if (r === 0) return new Uint8Array(Array.from({ length: rng.int(200) }, () => rng.int(256)));
  if (r === 1)
    return rng.pick([
      '',
      '{',
      '[]',
      'null',
      '"x"',
      '{"fp":1}',
      '{"fp":"a","messages":[]}',
      '\ufeff{}',
      '{"a":'.repeat(500),
    ]);
  const message = userMessage(text(rng));
  const valid: Record<string, unknown> = { fp: 'fuzz', messages: [message] };
  const fields = [
    'fp',
    'messages',
    'threadId',
    'threadKey',
    'context',
    'filter',
    'currentPath',
    'retrievalPageSize',
    'unknownField',
  ];
  for (let i = rng.int(3); i > 0; i--) {
    const field = rng.pick(fields);
    valid[field] =
      field === 'context' && rng.next() < 0.5
        ? Array.from({ length: rng.int(5) }, () => ({
            type: rng.pick(['text', 'code', 'x']),
            value: text(rng),
            label: value(rng),
          }))
        : field === 'messages' && rng.next() < 0.5
          ? [
              {
                ...message,
                role: rng.pick(['user', 'assistant', 'system', 'tool', 'x']),
                parts: value(rng),
              },
            ]
          : value(rng);
  }
  return JSON.stringify(valid);
}

const PATHS = [
  `/discovery/v1/assistant/${DEMO.domain}/message`,
  '/discovery/v1/assistant/unknown/message',
  '/discovery/v1/assistant/%2e%2e%2fetc/message',
  '/discovery/v1/assistant//message',
  '/v1/static-export/jobs',
  '/v1/static-export/jobs/se_01JD8X3K2M0000000000000000',
  '/v1/static-export/jobs/../../etc/passwd/bundle',
  '/v1/static-export/bundles/se_01JD8X3K2M0000000000000000.tar.gz?expires=1&signature=00',
  '/v1/static-export/bundles/x.tar.gz?expires=NaN',
  '/docs',
  '/docs/%E0%A4%A',
  '/docs/../../package.json',
  '/docs/getting-started',
  '/healthz',
  `/${'a'.repeat(5000)}`,
  '/%ff%fe',
];

describe('fuzzed requests (seeded)', () => {
  it(`answers ${FUZZ_CASES} hostile requests without a single 5xx, every error as {error,message}`, async () => {
    const app = await demoApp({ limits: { orgPerHour: 1e9, ipPerDay: 1e9, ipPerOrgHour: 1e9 } });
    const rng = random(FUZZ_SEED);
    const failures: string[] = [];
    const statuses = new Map<number, number>();
    for (let n = 0; n < FUZZ_CASES; n++) {
      const method =
        rng.next() < 0.7 ? 'POST' : rng.pick(['GET', 'PUT', 'DELETE', 'OPTIONS', 'PATCH', 'HEAD']);
      const path = rng.next() < 0.5 ? PATHS[0]! : rng.pick(PATHS);
      const headers: Record<string, string> = {};
      const auth =
        rng.next() < 0.6
          ? DEMO.assistantKey
          : rng.pick([
              DEMO.adminKey,
              'svc_dsc_nope',
              'x'.repeat(3000),
              '',
              'svc_',
              'Bearer ',
              'svc_dsc_\u00e9',
            ]);
      if (auth) headers.Authorization = rng.next() < 0.9 ? `Bearer ${auth}` : auth;
      const type =
        rng.next() < 0.7
          ? 'application/json'
          : rng.pick([
              'application/json; charset=utf-16',
              'text/plain',
              'application/ld+json',
              'multipart/form-data; boundary=x',
              '',
            ]);
      if (type) headers['Content-Type'] = type;
      const init: RequestInit = { method, headers };
      if (!['GET', 'HEAD', 'OPTIONS'].includes(method)) init.body = body(rng);
      let status = 0;
      let problem = '';
      try {
        const response = await app.request(`http://test${path}`, init);
        status = response.status;
        const raw = await response.text();
        if (status >= 500) problem = `status ${status}: ${raw.slice(0, 200)}`;
        else if (method === 'HEAD') {
          // A HEAD answer has no body by definition.
        } else if (status >= 400) {
          const parsed = JSON.parse(raw) as { error?: unknown; message?: unknown };
          if (typeof parsed.error !== 'string' || typeof parsed.message !== 'string')
            problem = `error body ${raw.slice(0, 200)}`;
        } else if (response.headers.get('x-vercel-ai-data-stream') === 'v1') {
          const lines = raw.split('\n').filter(Boolean);
          const bad = lines.find((line) => !parseStreamLine(line).ok);
          if (bad) problem = `stream line ${bad.slice(0, 100)}`;
          else if (!/^[d3]:/.test(lines.at(-1) ?? ''))
            problem = `stream ends with ${lines.at(-1)?.slice(0, 40)}`;
        }
      } catch (error) {
        problem = `threw ${(error as Error).message}`;
      }
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
      if (problem) failures.push(`case ${n} ${method} ${path.slice(0, 60)}: ${problem}`);
    }
    console.log(
      `fuzz: ${FUZZ_CASES} cases, statuses ${JSON.stringify(Object.fromEntries([...statuses].sort(([a], [b]) => a - b)))}`,
    );
    expect(failures).toEqual([]);
    // The fuzzer really reached the answering code and the error paths, not one status only.
    expect(statuses.get(200) ?? 0).toBeGreaterThan(100);
    expect([...statuses.keys()].filter((s) => s >= 400).length).toBeGreaterThanOrEqual(5);
  });
});
