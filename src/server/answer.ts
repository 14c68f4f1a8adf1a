import type { DocSection } from './docs.js';
import type { SearchHit } from './retrieval.js';

export interface CitedPage {
  path: string;
  title: string;
  url: string;
}

export interface ComposedAnswer {
  markdown: string;
  /** Pages quoted in the answer, in citation order ([1], [2], …). */
  cited: CitedPage[];
  /** One sentence for the reasoning part: what was found and why it was chosen. */
  rationale: string;
}

/** How many sections the answer quotes; the rest become follow-up suggestions. */
const QUOTED_SECTIONS = 3;
const SENTENCES_PER_SECTION = 3;
const MAX_CODE_LINES = 25;

function sentencesOf(text: string): string[] {
  return text
    .split(/\n+/)
    .flatMap((line) => (line.startsWith('- ') || line.includes(' | ') ? [line] : line.split(/(?<=[.!?])\s+(?=[A-Z`"(])/)))
    .map((s) => s.trim())
    .filter(Boolean);
}

function matchesTerm(sentence: string, term: string): boolean {
  // Prefix match on words, the same leniency as the index (install ~ installation).
  const stem = term.slice(0, Math.max(4, term.length - 2));
  return sentence.toLowerCase().split(/[^\p{L}\p{N}_]+/u).some((word) => word.startsWith(stem));
}

/** The sentences that carry the most query terms, kept in the order the docs wrote them. */
function bestSentences(section: DocSection, terms: string[]): string[] {
  const sentences = sentencesOf(section.text);
  const scored = sentences.map((sentence, index) => ({
    sentence,
    index,
    score: terms.filter((term) => matchesTerm(sentence, term)).length,
  }));
  const chosen = scored
    .filter((s) => s.score > 0)
    .sort((a, b) => b.score - a.score || a.index - b.index)
    .slice(0, SENTENCES_PER_SECTION);
  const picked = chosen.length > 0 ? chosen : scored.slice(0, 2);
  return picked.sort((a, b) => a.index - b.index).map((s) => s.sentence);
}

function fence(lang: string, value: string): string {
  const lines = value.split('\n');
  const body = lines.length > MAX_CODE_LINES ? [...lines.slice(0, MAX_CODE_LINES), '…'].join('\n') : value;
  // A fence longer than any backtick run inside keeps the code intact.
  const longest = Math.max(2, ...(body.match(/`+/g) ?? []).map((run) => run.length));
  const ticks = '`'.repeat(longest + 1);
  return `${ticks}${lang}\n${body}\n${ticks}`;
}

function escapeLinkText(text: string): string {
  return text.replace(/([\\[\]*_`])/g, '\\$1');
}

/**
 * Builds an extractive answer: the best passages of the top sections, quoted with links to their
 * pages, and code from the docs kept as fenced code. No model, so nothing is invented.
 */
export function composeAnswer(question: string, hits: SearchHit[], pageUrl: (section: DocSection) => string): ComposedAnswer {
  if (hits.length === 0) {
    const shown = question.length > 120 ? question.slice(0, 117) + '…' : question;
    return {
      markdown:
        `I couldn't find anything in these docs about “${shown.replace(/[\r\n]+/g, ' ')}”. ` +
        'Try other words (a feature name, an option, an error message), or ask about a topic the docs cover.',
      cited: [],
      rationale: 'No section of the docs matched, so I say so rather than guess.',
    };
  }
  const cited: CitedPage[] = [];
  const citationOf = (section: DocSection): number => {
    let index = cited.findIndex((page) => page.path === section.pagePath);
    if (index < 0) {
      index = cited.push({ path: section.pagePath, title: section.pageTitle, url: pageUrl({ ...section, anchor: '' }) }) - 1;
    }
    return index + 1;
  };
  const quoted = hits.slice(0, QUOTED_SECTIONS);
  const blocks: string[] = [];
  let codeShown = 0;
  for (const [position, { section, terms }] of quoted.entries()) {
    const n = citationOf(section);
    const label = section.heading === section.pageTitle ? section.pageTitle : `${section.pageTitle} › ${section.heading}`;
    const lines = bestSentences(section, terms);
    const intro = position === 0 ? 'From' : 'See also';
    const parts = [`${intro} **[${escapeLinkText(label)}](${pageUrl(section)})** [${n}]:`];
    if (lines.length) parts.push(lines.map((line) => `> ${line}`).join('\n>\n'));
    // Code is what readers copy: keep the first sample of the top sections verbatim.
    const sample = section.code[0];
    if (sample && codeShown < 2) {
      parts.push(fence(sample.lang, sample.value));
      codeShown++;
    }
    blocks.push(parts.join('\n\n'));
  }
  const related = hits
    .slice(QUOTED_SECTIONS)
    .filter((hit, i, all) => all.findIndex((other) => other.section.pagePath === hit.section.pagePath) === i)
    .filter((hit) => !quoted.some((q) => q.section.pagePath === hit.section.pagePath));
  // NOTES §2: follow-up pages go in a `suggestions` block using the inverted link form.
  if (related.length) {
    blocks.push(
      fence(
        'suggestions',
        related.map(({ section }) => `(${section.heading === section.pageTitle ? section.pageTitle : `${section.pageTitle}: ${section.heading}`})[${pageUrl(section)}]`).join('\n'),
      ),
    );
  }
  const top = quoted[0]!.section;
  return {
    markdown: blocks.join('\n\n'),
    cited,
    rationale:
      `The best match is “${top.heading}” on ${top.pageTitle} (${top.pagePath}); ` +
      `I quote the ${quoted.length === 1 ? 'passage' : `top ${quoted.length} passages`} and link every page I used` +
      (related.length ? `, and list ${related.length} related ${related.length === 1 ? 'page' : 'pages'} to read next.` : '.'),
  };
}
