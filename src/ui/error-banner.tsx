import { STREAM_CUT, STREAM_ENDED, STREAM_ERROR } from '../chat/assistant-fetch.js';
import type { AssistantError } from '../client/errors.js';
import { fill, useTranslations, type ErrorTranslations } from './translations.js';

function duration(seconds: number, t: ErrorTranslations): string {
  const { seconds: s = '{n} seconds', minutes = '{n} minutes', hours = '{n} hours' } = t;
  if (seconds < 90) return fill(s, { n: Math.max(1, Math.round(seconds)) });
  if (seconds < 90 * 60) return fill(minutes, { n: Math.round(seconds / 60) });
  return fill(hours, { n: Math.round(seconds / 3600) });
}

/** The UI's sentence for a typed error; the server's own words stay in logs and `error.message`. */
export function errorSentence(error: AssistantError, t: ErrorTranslations): string {
  // An answer that broke off partway: say so, and whose side it broke on.
  if (error.code === STREAM_CUT)
    return (
      t.cut ??
      'The connection was lost before the answer was complete. Check your connection and try again.'
    );
  if (error.code === STREAM_ENDED || error.code === STREAM_ERROR)
    return (
      t.serverPartial ?? 'The assistant ran into a problem and stopped partway through this answer.'
    );
  switch (error.kind) {
    case 'rate_limited':
      return error.retryAfterSeconds
        ? fill(t.rateLimited ?? 'Too many questions right now. Please try again in {time}.', {
            time: duration(error.retryAfterSeconds, t),
          })
        : (t.rateLimitedSoon ??
            'Too many questions right now. Please try again in a little while.');
    case 'unauthorized':
      return (
        t.unauthorized ?? 'The assistant refused this site’s key, so it cannot answer right now.'
      );
    case 'forbidden':
      return t.forbidden ?? 'This site is not allowed to use the assistant with this key.';
    case 'not_found':
      return t.notFound ?? 'The assistant does not know this docs site.';
    case 'bad_request':
      return t.badRequest ?? 'The assistant could not accept this question.';
    case 'server':
      return t.server ?? 'The assistant had a problem answering.';
    case 'network':
      return (
        t.network ?? 'The connection to the assistant failed. Check your connection and try again.'
      );
    case 'protocol':
      return t.protocol ?? 'The assistant’s answer could not be read.';
    default:
      return error.kind satisfies never;
  }
}

/** The failed request's sentence with its one Retry, or a note that part of an answer was skipped. */
export function ErrorBanner({
  error,
  warning,
  onRetry,
}: {
  error: AssistantError | undefined;
  warning: boolean;
  onRetry(): void;
}) {
  const t = useTranslations('errors');
  const {
    retry = 'Retry',
    protocolWarning = 'Part of this answer could not be read and was skipped.',
  } = t;
  if (!error && !warning) return null;
  return (
    <div className="da-banner-area">
      {error ? (
        <div className="da-banner" role="alert" data-kind={error.kind}>
          <p>{errorSentence(error, t)}</p>
          <button type="button" className="da-banner-retry" onClick={onRetry}>
            {retry}
          </button>
        </div>
      ) : (
        <p className="da-warning" data-kind="protocol">
          {protocolWarning}
        </p>
      )}
    </div>
  );
}
