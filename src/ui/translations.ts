import { createContext, useContext } from 'react';

/*
 * Every string the widget shows, grouped by the component that shows it (DocSearch's
 * `translations` shape). Each component keeps its English defaults inline, where it uses them:
 * `const { send = 'Send' } = useTranslations('composer')`. Placeholders in braces are filled in.
 */

export type LauncherTranslations = Partial<{ buttonText: string }>;
/** The page's own "Ask AI" buttons, by a text selection and over code blocks (script tag, `usePageContext`). */
export type PageContextTranslations = Partial<{
  buttonText: string;
  /** Accessible name of the code-block button. @default '{buttonText}: code block' */
  codeBlockLabel: string;
  /** Accessible name of the selection button. @default '{buttonText}: selected text' */
  selectionLabel: string;
}>;
export type HeaderTranslations = Partial<{
  title: string;
  close: string;
  newConversation: string;
  support: string;
  /** The header menu's button. */
  moreActions: string;
  copyPage: string;
  copyConversation: string;
  /** Said (and shown) once the page is on the clipboard. */
  pageCopied: string;
  conversationCopied: string;
  copyFailed: string;
}>;
export type StartTranslations = Partial<{ title: string; body: string; startersTitle: string }>;
export type ComposerTranslations = Partial<{
  placeholder: string;
  inputLabel: string;
  send: string;
  stop: string;
  attached: string;
  /** `{what}` is `contextCode` or `contextSelection`. */
  removeContext: string;
  contextCode: string;
  contextSelection: string;
}>;
export type MessageTranslations = Partial<{
  /** The conversation log's accessible name. */
  logLabel: string;
  you: string;
  assistant: string;
  thinking: string;
  jumpToLatest: string;
  stoppedMarker: string;
  retry: string;
  queued: string;
  removeQueued: string;
  sentWith: string;
  contextCode: string;
  contextSelection: string;
  copyAnswer: string;
  copied: string;
  helpful: string;
  notHelpful: string;
  feedbackThanks: string;
  followUps: string;
  /** `{title}` is a suggested page's title. */
  followUpAbout: string;
  /** Read (not shown) before an answer that quotes the section that clearly answers. */
  sureMarker: string;
  /** The marker on an answer that is not sure and shows the closest sections instead. */
  unsureMarker: string;
  /** The marker on an answer that says the docs do not cover the question. */
  refusedMarker: string;
}>;
export type FeedbackTranslations = Partial<{
  title: string;
  incorrect: string;
  unrelated: string;
  sources: string;
  unclear: string;
  comment: string;
  send: string;
  cancel: string;
}>;
/** How the assistant's steps read: tool lines and cards, reasoning. */
export type PartsTranslations = Partial<{
  thinking: string;
  writing: string;
  searching: string;
  searchingFor: string;
  searched: string;
  searchedFor: string;
  usingTool: string;
  usedTool: string;
  toolRunning: string;
  toolDone: string;
  searchResults: string;
  reasoning: string;
  howIFound: string;
  redacted: string;
}>;
export type SourcesTranslations = Partial<{
  title: string;
  alsoSearched: string;
  /** A citation link's accessible name: `{n}` and `{title}`. */
  citation: string;
}>;
/** Code blocks and the suggested pages block in answers. */
export type CodeTranslations = Partial<{
  copyCode: string;
  copied: string;
  /** The language label of a code block that names none. */
  noLanguage: string;
  suggestions: string;
}>;
/** Said once to screen readers as an answer starts and ends. */
export type StatusTranslations = Partial<{
  answering: string;
  answered: string;
  /** Announced when an answer that is not sure ends. */
  answeredUnsure: string;
  /** Announced when an answer that says the docs do not cover the question ends. */
  answeredRefused: string;
  stopped: string;
}>;
export type ErrorTranslations = Partial<{
  unauthorized: string;
  forbidden: string;
  notFound: string;
  /** `{time}` is `seconds`, `minutes` or `hours` filled in. */
  rateLimited: string;
  rateLimitedSoon: string;
  badRequest: string;
  server: string;
  network: string;
  cut: string;
  serverPartial: string;
  protocol: string;
  protocolWarning: string;
  retry: string;
  seconds: string;
  minutes: string;
  hours: string;
}>;

/** Replacements for any string the widget shows, per component; each has its English default. */
export interface DocsAssistantTranslations {
  launcher?: LauncherTranslations;
  pageContext?: PageContextTranslations;
  header?: HeaderTranslations;
  start?: StartTranslations;
  composer?: ComposerTranslations;
  message?: MessageTranslations;
  feedback?: FeedbackTranslations;
  parts?: PartsTranslations;
  sources?: SourcesTranslations;
  code?: CodeTranslations;
  status?: StatusTranslations;
  errors?: ErrorTranslations;
}

type Group = keyof DocsAssistantTranslations;
type Path = {
  [G in Group]: `${G}.${keyof NonNullable<DocsAssistantTranslations[G]> & string}`;
}[Group];

/**
 * The flat `labels` of earlier versions, each with the translations it stands for (a few strings
 * appear in two components). Kept so existing `labels` props keep working.
 */
const LABEL_PATHS = {
  launcher: ['launcher.buttonText'],
  title: ['header.title', 'message.logLabel'],
  close: ['header.close'],
  newConversation: ['header.newConversation'],
  support: ['header.support'],
  emptyTitle: ['start.title'],
  emptyBody: ['start.body'],
  starterHeading: ['start.startersTitle'],
  placeholder: ['composer.placeholder'],
  inputLabel: ['composer.inputLabel'],
  send: ['composer.send'],
  stop: ['composer.stop'],
  attached: ['composer.attached'],
  removeContext: ['composer.removeContext'],
  contextCode: ['composer.contextCode', 'message.contextCode'],
  contextSelection: ['composer.contextSelection', 'message.contextSelection'],
  you: ['message.you'],
  assistant: ['message.assistant'],
  copyAnswer: ['message.copyAnswer'],
  // Shown nowhere since the copy buttons got their own labels; kept so old `labels` still compile.
  copy: [],
  copied: ['message.copied', 'code.copied'],
  retry: ['message.retry', 'errors.retry'],
  helpful: ['message.helpful'],
  notHelpful: ['message.notHelpful'],
  jumpToLatest: ['message.jumpToLatest'],
  stoppedMarker: ['message.stoppedMarker'],
  queued: ['message.queued'],
  removeQueued: ['message.removeQueued'],
  sentWith: ['message.sentWith'],
  followUps: ['message.followUps'],
  followUpAbout: ['message.followUpAbout'],
  feedbackThanks: ['message.feedbackThanks'],
  feedbackTitle: ['feedback.title'],
  feedbackWrong: ['feedback.incorrect'],
  feedbackUnrelated: ['feedback.unrelated'],
  feedbackSources: ['feedback.sources'],
  feedbackUnclear: ['feedback.unclear'],
  feedbackComment: ['feedback.comment'],
  feedbackSend: ['feedback.send'],
  feedbackCancel: ['feedback.cancel'],
  thinking: ['parts.thinking', 'message.thinking'],
  writing: ['parts.writing'],
  searching: ['parts.searching'],
  searchingFor: ['parts.searchingFor'],
  searched: ['parts.searched'],
  searchedFor: ['parts.searchedFor'],
  usingTool: ['parts.usingTool'],
  usedTool: ['parts.usedTool'],
  toolRunning: ['parts.toolRunning'],
  toolDone: ['parts.toolDone'],
  searchResults: ['parts.searchResults'],
  reasoning: ['parts.reasoning'],
  howIFound: ['parts.howIFound'],
  redacted: ['parts.redacted'],
  sources: ['sources.title'],
  alsoSearched: ['sources.alsoSearched'],
  citation: ['sources.citation'],
  copyCode: ['code.copyCode'],
  suggestions: ['code.suggestions'],
  answering: ['status.answering'],
  answered: ['status.answered'],
  stopped: ['status.stopped'],
  protocolWarning: ['errors.protocolWarning'],
  errorUnauthorized: ['errors.unauthorized'],
  errorForbidden: ['errors.forbidden'],
  errorNotFound: ['errors.notFound'],
  errorRateLimited: ['errors.rateLimited'],
  errorRateLimitedSoon: ['errors.rateLimitedSoon'],
  errorBadRequest: ['errors.badRequest'],
  errorServer: ['errors.server'],
  errorNetwork: ['errors.network'],
  errorCut: ['errors.cut'],
  errorServerPartial: ['errors.serverPartial'],
  errorProtocol: ['errors.protocol'],
  seconds: ['errors.seconds'],
  minutes: ['errors.minutes'],
  hours: ['errors.hours'],
} satisfies Record<string, Path[]>;

/** @deprecated The flat labels of earlier versions; use `translations`. */
export type Labels = Record<keyof typeof LABEL_PATHS, string>;
/** @deprecated The flat `labels` prop of earlier versions; use `translations`. */
export type LabelsInput = Partial<Labels>;

/**
 * One translations object from the `translations` prop and the older flat `labels` (where both
 * name a string, `translations` wins).
 */
export function mergeTranslations(
  translations: DocsAssistantTranslations | undefined,
  labels: LabelsInput | undefined,
): DocsAssistantTranslations {
  const merged: Record<string, Record<string, string>> = {};
  for (const [name, value] of Object.entries(labels ?? {})) {
    const paths: string[] | undefined = (LABEL_PATHS as Record<string, string[]>)[name];
    if (typeof value !== 'string' || !paths) continue;
    for (const path of paths) {
      const [group, key] = path.split('.') as [string, string];
      (merged[group] ??= {})[key] = value;
    }
  }
  for (const [group, strings] of Object.entries(translations ?? {}))
    merged[group] = { ...merged[group], ...strings };
  return merged;
}

export function fill(template: string, values: Record<string, string | number>): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) =>
    name in values ? String(values[name]) : whole,
  );
}

interface UiSettings {
  translations: DocsAssistantTranslations;
  docsBaseUrl: string | undefined;
}

/** What every part of the widget reads, set once by `DocsAssistant` (never passed down by props). */
export const UiContext = createContext<UiSettings>({
  translations: {},
  docsBaseUrl: undefined,
});

/** A component's own translations; it destructures them with its English defaults. */
export function useTranslations<G extends Group>(
  group: G,
): NonNullable<DocsAssistantTranslations[G]> {
  return useContext(UiContext).translations[group] ?? {};
}

/** Where relative links in answers point. */
export function useDocsBaseUrl(): string | undefined {
  return useContext(UiContext).docsBaseUrl;
}
