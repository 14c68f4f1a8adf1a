import { useEffect, useRef, useState } from 'react';
import type { ConfidenceLevel } from '../protocol/annotations.js';
import { useTranslations } from './translations.js';

/**
 * Tells screen readers once that an answer started and once how it ended, never per token (peers'
 * answers are never announced at all). A stopped answer is "stopped", not "ready"; a failed one
 * says nothing here: its alert speaks.
 */
export function Announcer({
  busy,
  ending,
  level,
}: {
  busy: boolean;
  /** How the last answer ended, read when `busy` turns false. */
  ending: 'answered' | 'stopped' | 'failed' | 'other';
  /** How sure the last answer is, when the server said. */
  level?: ConfidenceLevel | undefined;
}) {
  const {
    answering = 'Answering…',
    answered: sure = 'Answer ready.',
    answeredUnsure = 'Answer ready, not sure: it shows the closest sections of the docs.',
    answeredRefused = 'Answer ready: the docs don’t cover this.',
    stopped = 'Stopped.',
  } = useTranslations('status');
  const answered =
    level === 'unsure' ? answeredUnsure : level === 'refused' ? answeredRefused : sure;
  const [announcement, setAnnouncement] = useState('');
  const wasBusy = useRef(busy);
  useEffect(() => {
    if (busy && !wasBusy.current) setAnnouncement(answering);
    if (!busy && wasBusy.current)
      setAnnouncement(ending === 'answered' ? answered : ending === 'stopped' ? stopped : '');
    wasBusy.current = busy;
  }, [busy, ending, answering, answered, stopped]);
  return (
    <p className="da-visually-hidden" role="status">
      {announcement}
    </p>
  );
}
