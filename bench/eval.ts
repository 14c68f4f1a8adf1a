// `npm run eval`: scores retrieval and answers on the sample docs and on real third-party docs sets:
// Fastify's own docs (test/fixtures/corpus/fastify) and the sets bench/eval/fetch.mjs fetches from
// the npm registry at pinned versions (nan, eslint-plugin-import, npm). docs/answer-quality.md says
// how the sets were made, how each is split into a dev half and a held-out half, and who saw what.
// It drives the real app in-process and reads the stream with the SDK's own parser, so what is
// scored is what a client receives. A benchmark: it prints figures, it asserts nothing.
//
//   npm run eval                      the no-model default
//   npm run eval -- --verbose         also list every miss (of the held-out halves only with --show-held-out)
//   npm run eval -- --set npm         only the sets whose name contains 'npm'
//   npm run eval -- --site            also the project and sample sets on a VitePress build of
//                                     their pages (serve --site), each row beside its --docs row
//   npm run eval -- --skip gyp        all but the sets whose name contains 'gyp' (repeatable:
//                                     --skip held-out --skip gyp is the dev halves alone)
//   DOCS_ASSISTANT_LLM_API_KEY=… npm run eval -- --llm-base-url URL --llm-model NAME [--llm-provider P]
//                                     the same questions answered by a model
//   npm run eval -- --embed-base-url URL --embed-model NAME
//                                     retrieval fused with an embedding model (docs/embeddings.md;
//                                     scripts/embed-server.sh serves all-MiniLM-L6-v2 locally)
import { processDataStream } from '@ai-sdk/ui-utils';
import GithubSlugger from 'github-slugger';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createApp, type AppOptions } from '../src/server/http/app.js';
import { loadDocsSite } from '../src/server/site/docs.js';
import { loadHtmlSite } from '../src/server/site/html.js';
import { parsePagePath } from '../src/server/site/page-path.js';
import { CLOSE_MARGIN, MIN_COVERAGE, runnerUpShare } from '../src/server/answering/answer.js';
import { REFUSAL_SENTENCES } from '../src/server/answering/phrases.js';
import { followUpSubject } from '../src/server/answering/question.js';
import { createRetriever, type Retriever } from '../src/server/answering/retrieval.js';
import {
  createDenseRetrieval,
  createFileVectorStore,
  describeEmbed,
  EMBED_API_KEY_VARIABLE,
  type DenseRetrieval,
  type EmbedConfig,
} from '../src/server/answering/dense.js';
import {
  describeLlm,
  type LlmConfig,
  type LlmProvider,
} from '../src/server/answering/llm/model.js';

interface EvalCase {
  q: string;
  /** Pages that answer it; empty means the docs do not cover it. */
  expect: string[];
  /** Words a good answer contains. */
  terms?: string[];
  /** Earlier questions of the same thread (a follow-up). */
  thread?: string[];
  currentPath?: string;
  filter?: { version?: string; language?: string };
  /** The heading of the section that answers it, when one section does. */
  section?: string;
  /** plain, paraphrase (words the docs do not use), follow-up or out-of-scope. */
  kind?: 'plain' | 'paraphrase' | 'follow-up' | 'out-of-scope';
}

/**
 * The half a question belongs to, from a hash of its words: the same on every machine, and no one
 * chooses it. Tuning looks at the dev half only; the held-out half is only ever scored.
 */
export function halfOf(c: EvalCase): 'dev' | 'held-out' {
  return createHash('sha256').update(c.q).digest()[0]! % 2 === 0 ? 'dev' : 'held-out';
}

interface Reply {
  text: string;
  sources: string[];
  searched: string[];
  /** The answer's confidence annotation: sure, unsure or refused. */
  level?: string;
}

/**
 * The places an answer shows the reader, in order, as page and anchor: the sections it quotes (their
 * bold linked titles), the pages a refusal offers (a list of links) and the related pages of its
 * suggestions block. Links inside quoted passages are the docs' own, not places offered.
 */
function placesShown(text: string): { path: string; anchor: string }[] {
  const places: { path: string; anchor: string }[] = [];
  const links =
    /\*\*\[[^\n]*?\]\((https?:\/\/[^)\s]+)\)\*\*|^- \[[^\n]*?\]\((https?:\/\/[^)\s]+)\)|^\([^\n]*\)\[(https?:\/\/[^\]\s]+)\]$/gm;
  for (const match of text.matchAll(links)) {
    const url = new URL(match[1] ?? match[2] ?? match[3]!);
    const place = {
      path: url.pathname.replace(/^\/docs/, '') || '/',
      anchor: decodeURIComponent(url.hash.slice(1)),
    };
    if (!places.some((p) => p.path === place.path && p.anchor === place.anchor)) places.push(place);
  }
  return places;
}

const root = join(import.meta.dirname, '..');
const KEY = 'svc_dsc_eval';

async function ask(
  app: ReturnType<typeof createApp>,
  domain: string,
  messages: { role: 'user' | 'assistant'; content: string }[],
  extra: Record<string, unknown>,
): Promise<Reply & { threadId: string | null }> {
  const response = await app.request(`http://eval/discovery/v1/assistant/${domain}/message`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${KEY}` },
    body: JSON.stringify({
      fp: 'anonymous',
      messages: messages.map((m, i) => ({
        id: `m${i}`,
        role: m.role,
        content: m.content,
        parts: [{ type: 'text', text: m.content }],
      })),
      ...extra,
    }),
  });
  if (!response.ok || !response.body)
    throw new Error(`HTTP ${response.status}: ${await response.text()}`);
  const reply: Reply = { text: '', sources: [], searched: [] };
  const pathOf = (url: string) => new URL(url).pathname.replace(/^\/docs/, '') || '/';
  await processDataStream({
    stream: response.body,
    onTextPart: (text) => void (reply.text += text),
    onSourcePart: (source) => void reply.sources.push(pathOf(source.url)),
    onToolResultPart: ({ result }) => {
      if (Array.isArray(result))
        for (const hit of result as { url?: string }[])
          if (hit.url) reply.searched.push(pathOf(hit.url));
    },
    onMessageAnnotationsPart: (annotations) => {
      for (const item of annotations as { type?: string; level?: string }[])
        if (item?.type === 'confidence') reply.level = item.level;
    },
    onErrorPart: (error) => {
      throw new Error(`stream error: ${error}`);
    },
  });
  return { ...reply, threadId: response.headers.get('x-thread-id') };
}

interface Figures {
  name: string;
  cases: number;
  inScope: number;
  cited: number;
  shown: number;
  hits: number;
  falseRefusals: number;
  outOfScope: number;
  refused: number;
  paraphrases: number;
  paraphrasesFound: number;
  /** Answerable questions answered unsure (the best places shown, none quoted as the answer). */
  unsure: number;
}

async function score(
  name: string,
  app: ReturnType<typeof createApp>,
  domain: string,
  cases: EvalCase[],
  verbose: boolean,
): Promise<Figures> {
  const figures: Figures = {
    name,
    cases: cases.length,
    inScope: 0,
    cited: 0,
    shown: 0,
    hits: 0,
    falseRefusals: 0,
    outOfScope: 0,
    refused: 0,
    paraphrases: 0,
    paraphrasesFound: 0,
    unsure: 0,
  };
  let termTotal = 0,
    termFound = 0;
  const misses: string[] = [];
  for (const c of cases) {
    const extra = {
      ...(c.currentPath ? { currentPath: c.currentPath } : {}),
      ...(c.filter ? { filter: c.filter } : {}),
    };
    const messages: { role: 'user' | 'assistant'; content: string }[] = [];
    let threadId: string | null = null;
    for (const earlier of c.thread ?? []) {
      messages.push({ role: 'user', content: earlier });
      const reply = await ask(app, domain, messages, {
        ...extra,
        ...(threadId ? { threadId } : {}),
      });
      threadId = reply.threadId;
      messages.push({ role: 'assistant', content: reply.text });
    }
    messages.push({ role: 'user', content: c.q });
    const reply = await ask(app, domain, messages, { ...extra, ...(threadId ? { threadId } : {}) });
    // A model words it its own way; the no-model default says one of REFUSAL_SENTENCES. A refusal
    // cites nothing: an answer quoting a page that talks about refusals (docs/server.md) is none.
    const refusedHere =
      reply.sources.length === 0 &&
      (REFUSAL_SENTENCES.some((sentence) => reply.text.includes(sentence)) ||
        /docs (don't|do not|doesn't) cover/i.test(reply.text));
    const label = `${c.thread ? `[after “${c.thread.at(-1)}”] ` : ''}${c.q}`;
    if (c.expect.length === 0) {
      figures.outOfScope++;
      if (refusedHere) figures.refused++;
      else
        misses.push(
          `  answered out-of-scope: ${label} → cited ${reply.sources.join(', ') || 'nothing'}`,
        );
      continue;
    }
    figures.inScope++;
    if (refusedHere) figures.falseRefusals++;
    if (reply.level === 'unsure') figures.unsure++;
    const top5 = [...new Set([...reply.sources, ...reply.searched])].slice(0, 5);
    const hit = top5.some((path) => c.expect.includes(path));
    if (hit) figures.hits++;
    // The right section among the first three places the answer shows (a refusal's "look at"
    // links count: they are what the reader is offered).
    const anchor = c.section ? new GithubSlugger().slug(c.section) : undefined;
    const shown = placesShown(reply.text)
      .slice(0, 3)
      .some(
        (place) =>
          c.expect.includes(place.path) && (anchor === undefined || place.anchor === anchor),
      );
    if (shown) figures.shown++;
    else
      misses.push(
        `  shown@3 miss: ${label} → ${
          placesShown(reply.text)
            .slice(0, 3)
            .map((p) => `${p.path}#${p.anchor}`)
            .join(', ') || 'nothing'
        } (want ${c.expect.join(' | ')}${anchor ? `#${anchor}` : ''})`,
      );
    const citedRight = !!reply.sources[0] && c.expect.includes(reply.sources[0]);
    if (citedRight) figures.cited++;
    else
      misses.push(
        `  cite@1 miss${hit ? '' : ' (and hit@5)'}: ${label} → ${reply.sources[0] ?? (refusedHere ? 'refused' : 'nothing')} (want ${c.expect.join(' | ')})`,
      );
    if (c.kind === 'paraphrase') {
      figures.paraphrases++;
      if (citedRight) figures.paraphrasesFound++;
    }
    for (const term of c.terms ?? []) {
      termTotal++;
      if (reply.text.toLowerCase().includes(term.toLowerCase())) termFound++;
      else if (verbose) misses.push(`  term “${term}” missing: ${label}`);
    }
  }
  const pct = (n: number, d: number) => (d ? `${((100 * n) / d).toFixed(1)}%` : 'n/a').padStart(6);
  console.log(
    `${name.padEnd(32)} ${String(cases.length).padStart(5)}  cite@1 ${pct(figures.cited, figures.inScope)}  shown@3 ${pct(figures.shown, figures.inScope)}  ` +
      `false refusals ${pct(figures.falseRefusals, figures.inScope)}  honest refusals ${pct(figures.refused, figures.outOfScope)}  ` +
      `hit@5 ${pct(figures.hits, figures.inScope)}  unsure ${pct(figures.unsure, figures.inScope)}  paraphrases ${figures.paraphrasesFound}/${figures.paraphrases}` +
      (termTotal ? `  answer terms ${pct(termFound, termTotal)}` : ''),
  );
  if (verbose) for (const line of misses) console.log(line);
  return figures;
}

export async function main() {
  const { values } = parseArgs({
    args: process.argv.includes('--') ? process.argv.slice(process.argv.indexOf('--') + 1) : [],
    options: {
      verbose: { type: 'boolean', short: 'v' },
      'show-held-out': { type: 'boolean' },
      set: { type: 'string' },
      skip: { type: 'string', multiple: true },
      'llm-base-url': { type: 'string' },
      'llm-model': { type: 'string' },
      'llm-provider': { type: 'string' },
      'embed-base-url': { type: 'string' },
      'embed-model': { type: 'string' },
      site: { type: 'boolean' },
    },
  });
  // The sets downloaded from the registry, fetched once into node_modules/.cache.
  // @ts-expect-error -- a plain ES module script, no types
  const { fetchSets, cacheDirOf, SETS } = (await import('./eval/fetch.mjs')) as {
    fetchSets: (root: string) => void;
    cacheDirOf: (root: string) => string;
    SETS: Record<string, { heldOutOnly?: boolean }>;
  };
  fetchSets(root);
  // @ts-expect-error -- a plain ES module script, no types
  const { buildSite, builtDirOf } = (await import('./eval/build-site.mjs')) as {
    buildSite: (root: string, name: string) => string;
    builtDirOf: (root: string, name: string) => string;
  };
  /** The corpora --site also scores on their VitePress build, by domain: the build-site.mjs name. */
  const BUILT: Record<string, string> = { project: 'project', demo: 'sample' };
  const cacheDir = cacheDirOf(root);
  // The held-out Fastify questions were written before any tuning and are never tuned against:
  // the gap between the two Fastify rows is the measure of overfitting. The fetched sets are each
  // one file of questions, split into halves by halfOf.
  const corpora = [
    {
      // docs-assistant's own documentation, the site `npm start` serves.
      domain: 'project',
      dir: join(root, 'docs'),
      sets: [{ name: 'project docs', file: 'docs.json', heldOut: false }],
    },
    {
      // The tests' sample site (test/fixtures/sample-docs), which the retrieval was first tuned on.
      domain: 'demo',
      dir: join(root, 'test/fixtures/sample-docs'),
      sets: [{ name: 'sample docs', file: 'sample.json', heldOut: false }],
    },
    {
      domain: 'fastify',
      dir: join(root, 'test/fixtures/corpus/fastify'),
      sets: [
        { name: 'fastify dev', file: 'fastify.json', heldOut: false },
        { name: 'fastify held-out', file: 'fastify-heldout.json', heldOut: true },
      ],
    },
    ...Object.entries(SETS).map(([name, { heldOutOnly }]) => ({
      domain: name,
      dir: join(cacheDir, name),
      // A set held out whole (gyp) has no dev half: every question is only ever scored.
      sets: heldOutOnly
        ? [{ name: `${name} held-out (all)`, file: `${name}.json`, heldOut: true }]
        : [
            { name: `${name} dev`, file: `${name}.json`, heldOut: false, half: 'dev' as const },
            {
              name: `${name} held-out`,
              file: `${name}.json`,
              heldOut: true,
              half: 'held-out' as const,
            },
          ],
    })),
  ]
    // --site: the same questions on a VitePress build of the same pages (bench/eval/build-site.mjs),
    // read as `serve --site` reads it, each set's row right below its Markdown row.
    .flatMap((corpus) => {
      const built = values.site ? BUILT[corpus.domain] : undefined;
      if (!built) return [{ ...corpus, built: false }];
      const sets = corpus.sets.map((set) => ({ ...set, name: `${set.name} --site` }));
      return [
        { ...corpus, built: false },
        {
          ...corpus,
          domain: `${corpus.domain}-site`,
          dir: builtDirOf(root, built),
          sets,
          built: true,
        },
      ];
    })
    .map((corpus) => ({
      ...corpus,
      sets: corpus.sets.filter(
        (set) =>
          (!values.set || set.name.includes(values.set)) &&
          !values.skip?.some((skipped) => set.name.includes(skipped)),
      ),
    }))
    .filter((corpus) => corpus.sets.length);
  const sites: AppOptions['sites'] = [];
  for (const corpus of corpora) {
    if (corpus.built && !existsSync(corpus.dir))
      buildSite(root, BUILT[corpus.domain.replace(/-site$/, '')]!);
    const docs = corpus.built
      ? (await loadHtmlSite(corpus.dir)).site
      : await loadDocsSite(corpus.dir);
    sites.push({ domain: corpus.domain, org: 'eval', docs });
  }
  const key = process.env.DOCS_ASSISTANT_LLM_API_KEY;
  const llm: LlmConfig | undefined = values['llm-model']
    ? {
        model: values['llm-model'],
        ...(values['llm-base-url'] ? { baseUrl: values['llm-base-url'] } : {}),
        ...(values['llm-provider'] ? { provider: values['llm-provider'] as LlmProvider } : {}),
        ...(key ? { apiKey: key } : {}),
      }
    : undefined;
  const embedKey = process.env[EMBED_API_KEY_VARIABLE];
  const embed: EmbedConfig | undefined =
    values['embed-base-url'] && values['embed-model']
      ? {
          baseUrl: values['embed-base-url'],
          model: values['embed-model'],
          ...(embedKey ? { apiKey: embedKey } : {}),
        }
      : undefined;
  const vectorStore = embed ? createFileVectorStore(join(cacheDir, 'vectors')) : undefined;
  const app = createApp({
    orgs: [{ id: 'eval', plan: 'enterprise', keys: [KEY] }],
    sites,
    ...(llm ? { llm } : {}),
    // Section vectors are kept between runs (by content hash): a second run embeds nothing again.
    ...(embed && vectorStore ? { embed, vectorStore } : {}),
  });
  console.log(`answers by: ${llm ? describeLlm(llm) : 'the no-model default (extractive)'}`);
  console.log(`retrieval: ${embed ? `keywords fused with ${describeEmbed(embed)}` : 'keywords'}`);
  console.log(`${'set'.padEnd(32)} cases`);
  const curves: { name: string; rows: Coverage[] }[] = [];
  const heldOut: Figures[] = [];
  for (const corpus of corpora) {
    const docs = sites.find((site) => site.domain === corpus.domain)!.docs;
    const retriever = createRetriever(docs);
    const sectionPaths = new Map(
      docs.pages.flatMap((page) => page.sections.map((s) => [s.id, s.pagePath] as const)),
    );
    // With a model, the curves below place each question with it too, as the answers do (the
    // vectors are the ones the app's indexing kept: nothing is embedded again but the questions).
    const dense =
      embed && vectorStore ? createDenseRetrieval(docs, embed, { store: vectorStore }) : undefined;
    for (const set of corpus.sets) {
      const cases = (
        JSON.parse(readFileSync(join(root, 'bench/eval', set.file), 'utf8')) as EvalCase[]
      ).filter((c) => !('half' in set) || halfOf(c) === set.half);
      // --verbose never lists the held-out misses, so tuning cannot see them; --show-held-out does.
      const verbose = !!values.verbose && (!set.heldOut || !!values['show-held-out']);
      const figures = await score(set.name, app, corpus.domain, cases, verbose);
      if (set.heldOut) heldOut.push(figures);
      // The refusal curve is tuning data: it shows the dev halves only.
      if (!set.heldOut)
        curves.push({
          name: set.name,
          rows: await Promise.all(cases.map((c) => coverageOf(retriever, c, dense, sectionPaths))),
        });
    }
  }
  if (heldOut.length > 1) {
    const sum = (key: keyof Omit<Figures, 'name'>) => heldOut.reduce((n, f) => n + f[key], 0);
    const pct = (n: number, d: number) => (d ? `${((100 * n) / d).toFixed(1)}%` : 'n/a');
    console.log(
      `all held-out halves: cite@1 ${pct(sum('cited'), sum('inScope'))} (target ≥ 85%), ` +
        `shown@3 ${pct(sum('shown'), sum('inScope'))} (≥ 97%), false refusals ${pct(sum('falseRefusals'), sum('inScope'))} (≤ 3%), ` +
        `honest refusals ${pct(sum('refused'), sum('outOfScope'))} (≥ 90%), unsure ${pct(sum('unsure'), sum('inScope'))}, paraphrases found ${sum('paraphrasesFound')}/${sum('paraphrases')}`,
    );
  }
  printCurve(curves);
  printMarginCurve(curves);
  printFusionCeiling(curves);
}

interface Coverage {
  coverage: number;
  /** No section matched at all: refused whatever the threshold. */
  empty: boolean;
  inScope: boolean;
  /** How close the best other page comes to the best section (runnerUpShare). */
  runnerUp: number;
  /** The best section's page answers the question. */
  topRight: boolean;
  /** With a model: whether keywords alone, and the model alone, put an answering page first. */
  alone?: { keywords: boolean; model: boolean };
}

/** The coverage the no-model answer compares with MIN_COVERAGE, found the way assistant.ts finds it. */
async function coverageOf(
  retriever: Retriever,
  c: EvalCase,
  dense: DenseRetrieval | undefined,
  sectionPaths: Map<string, string>,
): Promise<Coverage> {
  const earlier = followUpSubject(c.q, retriever.terms(c.q), [...(c.thread ?? [])].reverse());
  const scores = await dense?.scores(c.q);
  const options = {
    limit: 5,
    filter: c.filter,
    ...(c.currentPath ? { currentPath: parsePagePath(c.currentPath) } : {}),
    ...(earlier ? { earlier } : {}),
  };
  const result = retriever.search(c.q, { ...options, ...(scores ? { dense: scores } : {}) });
  const right = (hits: { section: { pagePath: string } }[]) =>
    !!hits[0] && c.expect.includes(hits[0].section.pagePath);
  // The model alone: its nearest section (before the question's filters, which only the search applies).
  const nearest = scores && [...scores].sort((a, b) => b[1] - a[1])[0]?.[0];
  return {
    coverage: result.coverage,
    empty: result.hits.length === 0,
    inScope: c.expect.length > 0,
    runnerUp: runnerUpShare(result.hits),
    topRight: right(result.hits),
    ...(scores
      ? {
          alone: {
            keywords: right(retriever.search(c.q, { ...options, dense: undefined }).hits),
            model: !!nearest && c.expect.includes(sectionPaths.get(nearest) ?? ''),
          },
        }
      : {}),
  };
}

/**
 * False refusals against honest refusals at thresholds around the chosen one: the data the
 * threshold is picked from (docs/answer-quality.md).
 */
function printCurve(curves: { name: string; rows: Coverage[] }[]) {
  // Each column as wide as the longest set's name and a gap.
  const width = Math.max(24, ...curves.map((curve) => curve.name.length + 2));
  const thresholds = [0.3, 0.34, 0.38, 0.4, 0.42, 0.44, 0.46, 0.5, 0.55, 0.6];
  console.log(
    `\nrefusal threshold (MIN_COVERAGE = ${MIN_COVERAGE}): false refusals / honest refusals per set`,
  );
  console.log(
    `${'threshold'.padEnd(10)}${curves.map((curve) => curve.name.padStart(width)).join('')}`,
  );
  for (const t of thresholds) {
    const cells = curves.map(({ rows }) => {
      const refused = (r: Coverage) => r.empty || r.coverage < t;
      const inScope = rows.filter((r) => r.inScope);
      const outOfScope = rows.filter((r) => !r.inScope);
      const pct = (n: number, d: number) => (d ? `${Math.round((100 * n) / d)}%` : 'n/a');
      return `${pct(inScope.filter(refused).length, inScope.length)} / ${pct(outOfScope.filter(refused).length, outOfScope.length)}`.padStart(
        width,
      );
    });
    console.log(`${(t === MIN_COVERAGE ? `${t} *` : String(t)).padEnd(10)}${cells.join('')}`);
  }
  const out = curves.flatMap(({ rows }) => rows.filter((r) => !r.inScope && !r.empty));
  const inside = curves.flatMap(({ rows }) => rows.filter((r) => r.inScope && !r.empty));
  const max = Math.max(...out.map((r) => r.coverage));
  // The lowest answerable coverage above every out-of-scope one: the threshold's margin on that side.
  const next = Math.min(...inside.map((r) => r.coverage).filter((c) => c > max));
  console.log(
    `highest out-of-scope coverage ${max.toFixed(3)}; answerable questions at or under it: ` +
      `${inside.filter((r) => r.coverage <= max).length} of ${inside.length}; the next answerable one: ${next.toFixed(3)}`,
  );
}

/**
 * Unsure answers against the margin (CLOSE_MARGIN), on the dev halves' answerable questions that
 * are not refused: how many would be unsure, of those whose best page is right (the cost: places
 * instead of a quote) and of those whose best page is wrong (the gain: the reader is told). The
 * data the margin is chosen from (docs/answer-quality.md, "Confidence").
 */
function printMarginCurve(curves: { name: string; rows: Coverage[] }[]) {
  const rows = curves.flatMap(({ rows }) =>
    rows.filter((r) => r.inScope && !r.empty && r.coverage >= MIN_COVERAGE),
  );
  const right = rows.filter((r) => r.topRight);
  const wrong = rows.filter((r) => !r.topRight);
  console.log(
    `\nunsure margin (CLOSE_MARGIN = ${CLOSE_MARGIN}), dev halves, ${rows.length} answered questions: ` +
      `unsure of all / of those whose top page is right / of those whose top page is wrong`,
  );
  for (const t of [0.5, 0.6, 0.65, 0.7, 0.75, 0.8, 0.85, 0.9, 0.95]) {
    const unsure = (list: Coverage[]) => list.filter((r) => r.runnerUp >= t).length;
    console.log(
      `${(t === CLOSE_MARGIN ? `${t} *` : String(t)).padEnd(10)}${`${unsure(rows)}/${rows.length}`.padStart(10)}` +
        `${`${unsure(right)}/${right.length}`.padStart(10)}${`${unsure(wrong)}/${wrong.length}`.padStart(10)}`,
    );
  }
}

/**
 * With a model: on the dev halves' answerable questions, how often keywords alone, the model alone
 * and the fused ranking put an answering page first, and how often at least one of the two does.
 * A fusion that picks one of the two rankings' firsts cannot be right more often than "either":
 * the ceiling of any such change (docs/embeddings.md).
 */
function printFusionCeiling(curves: { name: string; rows: Coverage[] }[]) {
  const sets = curves
    .map(({ name, rows }) => ({
      name,
      rows: rows.filter(
        (r): r is Coverage & { alone: NonNullable<Coverage['alone']> } => r.inScope && !!r.alone,
      ),
    }))
    .filter(({ rows }) => rows.length);
  if (!sets.length) return;
  console.log(
    `\ntop page right, dev halves' answerable questions: keywords alone / the model alone / fused / either of the two / neither`,
  );
  const line = (
    name: string,
    rows: (Coverage & { alone: { keywords: boolean; model: boolean } })[],
  ) => {
    const count = (test: (r: (typeof rows)[number]) => boolean) => rows.filter(test).length;
    const either = count((r) => r.alone.keywords || r.alone.model);
    console.log(
      `${name.padEnd(26)}${[
        count((r) => r.alone.keywords),
        count((r) => r.alone.model),
        count((r) => r.topRight),
        either,
        rows.length - either,
      ]
        .map((n) => String(n).padStart(6))
        .join('')}  of ${rows.length}`,
    );
  };
  for (const { name, rows } of sets) line(name, rows);
  line(
    'all',
    sets.flatMap(({ rows }) => rows),
  );
}
