import { SEARCH_TOOL_NAME, type SearchHit } from '../../protocol/index.js';
import { newUlid } from '../ids.js';
import type { DocBlock, DocSection } from '../site/docs.js';
import { composeAnswer, outcomeOf } from './answer.js';
import type { AnswerPart, Usage } from './parts.js';
import { phrasesFor } from './phrases.js';
import { firstSearch, shownQuery, type AnswerSite, type Question } from './question.js';

const TEXT_CHUNK_CHARS = 48;

/** Splits text into word-boundary chunks, the way a model streams tokens. */
export function chunkText(text: string, size = TEXT_CHUNK_CHARS): string[] {
  const chunks: string[] = [];
  let rest = text;
  while (rest.length > size) {
    let cut = rest.lastIndexOf(' ', size);
    if (cut <= 0) cut = size;
    chunks.push(rest.slice(0, cut + 1));
    rest = rest.slice(cut + 1);
  }
  if (rest) chunks.push(rest);
  return chunks;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The answer without a model: retrieves, composes a quoted answer from the docs (answer.ts), and
 * yields it in two steps, as an agentic answer has: the search tool call, then the answer with
 * its reasoning and sources (SPEC §4.1).
 */
export async function* quoteAnswer(
  site: AnswerSite,
  question: Question,
): AsyncGenerator<AnswerPart> {
  const { retriever } = site;
  const { query, earlier, options, result, hits } = firstSearch(site, question);
  // The thread's previous answer: the sections it quoted or showed as places are its bold links,
  // at their URLs. A refusal's pages to look at and the docs' own links in a quote were not read.
  const last = question.history.at(-1)?.answer;
  const quotedIn = (answer: string) => (section: DocSection) =>
    answer.includes(`](${site.pageUrl(section)})**`);
  // A block was shown when its first words are in the answer, marks and links aside.
  const words = (text: string) =>
    ` ${text
      .toLowerCase()
      .replace(/[^\p{L}\p{N}]+/gu, ' ')
      .trim()} `;
  const shownIn = (answer: string) => {
    const said = words(answer);
    return (block: DocBlock) => said.includes(words(block.text.slice(0, 80)).replace(/\S+ $/, ''));
  };
  const composed = composeAnswer({ ...result, hits }, retriever.terms(query), {
    pageUrl: site.pageUrl,
    sectionsOf: (pagePath) => retriever.sectionsOf(pagePath).map(site.linkedSection),
    // A follow-up's answer moves on from what the answer it follows quoted.
    ...(earlier && last ? { quotedBefore: quotedIn(last), shownBefore: shownIn(last) } : {}),
    // Any answer's "Ask next" leaves out what the reader has just read.
    ...(last ? { readBefore: quotedIn(last) } : {}),
  });

  const said = phrasesFor(result.language).reasoning;
  const reasoning =
    // The words as the reader wrote them, not their stems ("instal").
    said.searched(result.words) +
    (question.context?.length ? said.context(question.context.length) : '') +
    (earlier ? said.followsUp(earlier.slice(0, 120)) : '') +
    said.pages(result.language, result.version) +
    (question.filter?.version || question.filter?.language ? said.byFilter : '') +
    (question.currentPath ? said.currentPage(question.currentPath) : '') +
    said.kept(question.limit, hits.length) +
    (result.unknown.length ? said.unknown(result.unknown) : '') +
    (result.leftOut.words.length || result.leftOut.more
      ? said.leftOut(result.words.length, result.leftOut.words, result.leftOut.more)
      : '') +
    ` ${composed.rationale}`;
  const results = hits.map(({ section, score, title }): SearchHit => ({
    url: site.pageUrl(section),
    path: section.pagePath,
    title,
    section: section.heading,
    score: Math.round(score * 100) / 100,
    metadata: { title },
  }));
  const usage: Usage = {
    promptTokens: Math.ceil(query.length / 4),
    completionTokens: Math.ceil(composed.markdown.length / 4),
  };
  const toolCallId = `call_${newUlid(question.at)}`;
  const { messageId } = question;

  yield { type: 'step-start', messageId };
  yield {
    type: 'tool-call',
    toolCallId,
    toolName: SEARCH_TOOL_NAME,
    args: {
      query: shownQuery(query),
      ...options,
      filter: {
        language: result.language,
        ...(result.version ? { version: result.version } : {}),
      },
    },
  };
  yield { type: 'tool-result', toolCallId, result: results };
  yield { type: 'step-finish', finishReason: 'tool-calls', usage, isContinued: false };
  yield { type: 'step-start', messageId };
  yield { type: 'reasoning', text: reasoning };
  for (const page of composed.cited)
    yield { type: 'source', id: page.path, url: page.url, title: page.title };
  yield { type: 'confidence', level: composed.level };
  for (const chunk of chunkText(composed.markdown)) {
    if (site.chunkDelayMs > 0) await sleep(site.chunkDelayMs);
    yield { type: 'text', text: chunk };
  }
  if (composed.followUps.length) yield { type: 'suggestions', questions: composed.followUps };
  yield { type: 'step-finish', finishReason: 'stop', usage, isContinued: false };
  yield {
    type: 'done',
    outcome: outcomeOf(composed.level),
    text: composed.markdown,
    cited: composed.cited,
    finishReason: 'stop',
    usage,
  };
}
