import {
  TURN_OUTCOMES,
  type FeedbackReason,
  type InsightsReport,
  type TurnOutcome,
} from '../../protocol/index.js';
import type { InsightFeedback, InsightRange, InsightTurn } from '../stores/index.js';

/** Outcomes that tell the owner the docs (or the assistant) fell short. */
const UNANSWERED: ReadonlySet<TurnOutcome> = new Set(['refused', 'failed', 'unsure']);
/** Rows per list in a report: enough to act on, small enough to read. */
const MAX_ROWS = 100;
const DAY_MS = 86_400_000;

// Words that carry no subject: "how do I install it?" and "install?" ask the same thing.
const STOP_WORDS = new Set(
  `a an the and or but if of to in on at for with from by about as into is are was were be been
  being do does did done can could should would will shall may might must i me my we our you your
  it its this that these those there here what which who whom whose when where why how not no
  yes please thanks thank hi hello get got use using used make want need way any some all so
  work works working support supports supported possible able tell know`
    .split(/\s+/)
    .filter(Boolean),
);

/** The subject words of a question, roughly stemmed, so wordings of one question meet. */
export function wordsOf(question: string): Set<string> {
  const words = question
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word.length > 1 && !STOP_WORDS.has(word))
    .map((word) => word.replace(/(ing|ed|es|s)$/, '') || word);
  return new Set(words);
}

const similarity = (a: Set<string>, b: Set<string>) => {
  if (a.size === 0 && b.size === 0) return 1;
  let shared = 0;
  for (const word of a) if (b.has(word)) shared++;
  return shared / (a.size + b.size - shared);
};
/** Two questions sharing at least this share of their subject words are one question. */
const SAME_QUESTION = 0.5;

const counted = <K>(counts: Map<K, number>, key: K) => counts.set(key, (counts.get(key) ?? 0) + 1);
const ranked = (counts: Map<string, number>) =>
  [...counts]
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .slice(0, MAX_ROWS)
    .map(([path, count]) => ({ path, count }));
const zeroCounts = () =>
  Object.fromEntries(TURN_OUTCOMES.map((outcome) => [outcome, 0])) as Record<TurnOutcome, number>;

interface Group {
  words: Set<string>;
  turns: InsightTurn[];
}

/** Groups questions by similar wording: each joins the first group it is close enough to. */
function groupQuestions(turns: InsightTurn[]): Group[] {
  const groups: Group[] = [];
  for (const turn of turns) {
    const words = wordsOf(turn.question);
    const home = groups.find((group) => similarity(group.words, words) >= SAME_QUESTION);
    if (home) home.turns.push(turn);
    else groups.push({ words, turns: [turn] });
  }
  return groups;
}

/** The owner's report of one domain over a range, from its recorded turns and feedback. */
export function buildReport(
  domain: string,
  range: InsightRange,
  turns: InsightTurn[],
  feedback: InsightFeedback[],
): InsightsReport {
  const totals = { questions: turns.length, ...zeroCounts() };
  const byDay = new Map<string, Record<TurnOutcome, number>>();
  for (let day = Date.parse(range.since.slice(0, 10)); day < Date.parse(range.until); day += DAY_MS)
    byDay.set(new Date(day).toISOString().slice(0, 10), zeroCounts());
  const cited = new Map<string, number>();
  const gaps = new Map<string, { count: number; example: string }>();
  for (const turn of turns) {
    totals[turn.outcome]++;
    const day = byDay.get(turn.at.slice(0, 10));
    if (day) day[turn.outcome]++;
    for (const path of new Set(turn.cited)) counted(cited, path);
    if (UNANSWERED.has(turn.outcome) && turn.currentPath) {
      const gap = gaps.get(turn.currentPath) ?? { count: 0, example: turn.question };
      gap.count++;
      gaps.set(turn.currentPath, gap);
    }
  }

  const unanswered = groupQuestions(turns.filter((turn) => UNANSWERED.has(turn.outcome)))
    .map(({ turns: asked }) => {
      const pages = new Map<string, number>();
      for (const turn of asked) if (turn.currentPath) counted(pages, turn.currentPath);
      const latest = asked[asked.length - 1]!;
      return {
        example: latest.question,
        count: asked.length,
        outcomes: TURN_OUTCOMES.filter((outcome) => asked.some((t) => t.outcome === outcome)),
        pages: ranked(pages),
        lastAsked: latest.at,
        threadIds: [...new Set(asked.flatMap((turn) => turn.threadId ?? []))].slice(-10),
      };
    })
    .sort((a, b) => b.count - a.count || b.lastAsked.localeCompare(a.lastAsked))
    .slice(0, MAX_ROWS);

  const questionOf = new Map(
    turns.flatMap((turn) =>
      turn.threadId && turn.messageId
        ? [[`${turn.threadId} ${turn.messageId}`, turn.question] as const]
        : [],
    ),
  );
  const reasons: Partial<Record<FeedbackReason, number>> = {};
  for (const item of feedback)
    for (const reason of item.reasons) reasons[reason] = (reasons[reason] ?? 0) + 1;

  return {
    domain,
    since: range.since,
    until: range.until,
    totals,
    days: [...byDay].map(([day, counts]) => ({ day, ...counts })),
    unanswered,
    citedPages: ranked(cited),
    gapPages: [...gaps]
      .sort((a, b) => b[1].count - a[1].count || a[0].localeCompare(b[0]))
      .slice(0, MAX_ROWS)
      .map(([path, gap]) => ({ path, ...gap })),
    feedback: {
      up: feedback.filter((item) => item.rating === 'up').length,
      down: feedback.filter((item) => item.rating === 'down').length,
      reasons,
      items: feedback
        .slice()
        .reverse()
        .slice(0, MAX_ROWS * 5)
        .map((item) => {
          const question = item.question ?? questionOf.get(`${item.threadId} ${item.messageId}`);
          return {
            at: item.at,
            rating: item.rating,
            reasons: item.reasons,
            ...(item.comment ? { comment: item.comment } : {}),
            threadId: item.threadId,
            messageId: item.messageId,
            ...(question ? { question } : {}),
          };
        }),
    },
  };
}
