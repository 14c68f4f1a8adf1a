import type { AssistantError, AssistantErrorKind } from '../client/errors.js';
import { STREAM_CUT, STREAM_ENDED, STREAM_ERROR } from '../chat/assistant-fetch.js';

/** Every string the widget shows; override any of them through the `labels` prop. */
export const DEFAULT_LABELS = {
  launcher: 'Ask AI',
  title: 'Ask the docs',
  close: 'Close',
  newConversation: 'New conversation',
  emptyTitle: 'How can I help?',
  emptyBody: 'Answers come from this documentation, with links to the pages they cite.',
  starterHeading: 'Try asking',
  placeholder: 'Ask a question…',
  inputLabel: 'Your question',
  send: 'Send',
  stop: 'Stop',
  you: 'You',
  assistant: 'Assistant',
  copy: 'Copy',
  copied: 'Copied',
  copyAnswer: 'Copy answer',
  copyCode: 'Copy code',
  retry: 'Retry',
  helpful: 'Helpful',
  notHelpful: 'Not helpful',
  sources: 'Sources',
  reasoning: 'Reasoning',
  howIFound: 'How I found this',
  thinking: 'Thinking…',
  writing: 'Writing the answer…',
  searching: 'Searching the docs…',
  searchingFor: 'Searching the docs for “{query}”…',
  searched: 'Searched the docs',
  searchedFor: 'Searched the docs for “{query}”',
  usingTool: 'Using {tool}…',
  usedTool: 'Used {tool}',
  alsoSearched: 'Also searched ({count})',
  citation: 'Source {n}: {title}',
  jumpToLatest: 'Jump to latest',
  stoppedMarker: 'Stopped',
  queued: 'Waiting to be asked',
  removeQueued: 'Don’t ask this',
  followUps: 'Ask next',
  followUpAbout: 'Tell me more about {title}',
  feedbackTitle: 'What was wrong?',
  feedbackWrong: 'Incorrect or outdated',
  feedbackUnrelated: 'Didn’t answer my question',
  feedbackSources: 'Missing or wrong sources',
  feedbackUnclear: 'Hard to understand',
  feedbackComment: 'Anything else? (optional)',
  feedbackSend: 'Send feedback',
  feedbackCancel: 'Skip',
  feedbackThanks: 'Thanks for the feedback.',
  redacted: 'redacted',
  toolRunning: 'Running…',
  toolDone: 'Done',
  searchResults: '{count} results',
  suggestions: 'Related pages',
  answering: 'Answering…',
  answered: 'Answer ready.',
  stopped: 'Stopped.',
  attached: 'Attached context',
  sentWith: 'Sent with this question',
  removeContext: 'Remove {what}',
  contextCode: 'code',
  contextSelection: 'selection',
  support: 'Contact support',
  protocolWarning: 'Part of this answer could not be read and was skipped.',
  errorUnauthorized: 'The assistant refused this site’s key, so it cannot answer right now.',
  errorForbidden: 'This site is not allowed to use the assistant with this key.',
  errorNotFound: 'The assistant does not know this docs site.',
  errorRateLimited: 'Too many questions right now. Please try again in {time}.',
  errorRateLimitedSoon: 'Too many questions right now. Please try again in a little while.',
  errorBadRequest: 'The assistant could not accept this question.',
  errorServer: 'The assistant had a problem answering.',
  errorNetwork: 'The connection to the assistant failed. Check your connection and try again.',
  errorCut:
    'The connection was lost before the answer was complete. Check your connection and try again.',
  errorServerPartial: 'The assistant ran into a problem and stopped partway through this answer.',
  errorProtocol: 'The assistant’s answer could not be read.',
  seconds: '{n} seconds',
  minutes: '{n} minutes',
  hours: '{n} hours',
};

export type Labels = typeof DEFAULT_LABELS;
export type LabelsInput = Partial<Labels>;

export function fill(template: string, values: Record<string, string | number>): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) =>
    name in values ? String(values[name]) : whole,
  );
}

function duration(seconds: number, labels: Labels): string {
  if (seconds < 90) return fill(labels.seconds, { n: Math.max(1, Math.round(seconds)) });
  if (seconds < 90 * 60) return fill(labels.minutes, { n: Math.round(seconds / 60) });
  return fill(labels.hours, { n: Math.round(seconds / 3600) });
}

const KIND_LABEL: Record<Exclude<AssistantErrorKind, 'rate_limited'>, keyof Labels> = {
  unauthorized: 'errorUnauthorized',
  forbidden: 'errorForbidden',
  not_found: 'errorNotFound',
  bad_request: 'errorBadRequest',
  server: 'errorServer',
  network: 'errorNetwork',
  protocol: 'errorProtocol',
};

/** The UI's sentence for a typed error; the server's own words stay in logs and `error.message`. */
export function errorSentence(error: AssistantError, labels: Labels): string {
  // An answer that broke off partway: say so, and whose side it broke on.
  if (error.code === STREAM_CUT) return labels.errorCut;
  if (error.code === STREAM_ENDED || error.code === STREAM_ERROR) return labels.errorServerPartial;
  if (error.kind === 'rate_limited') {
    return error.retryAfterSeconds
      ? fill(labels.errorRateLimited, { time: duration(error.retryAfterSeconds, labels) })
      : labels.errorRateLimitedSoon;
  }
  return labels[KIND_LABEL[error.kind]];
}
