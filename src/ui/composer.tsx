import { forwardRef, useState, type KeyboardEvent } from 'react';
import type { ContextItem } from '../protocol/types.js';
import { fill, useTranslations } from './translations.js';

export interface ComposerProps {
  busy: boolean;
  context: ContextItem[];
  onSend(text: string): boolean;
  onStop(): void;
  onRemoveContext(index: number): void;
}

function ContextChip({ item, onRemove }: { item: ContextItem; onRemove(): void }) {
  const {
    removeContext = 'Remove {what}',
    contextCode = 'code',
    contextSelection = 'selection',
  } = useTranslations('composer');
  const what = item.type === 'code' ? contextCode : contextSelection;
  const preview = item.value.trim().split('\n').slice(0, 3).join('\n');
  return (
    <li className="da-chip" data-type={item.type}>
      {item.type === 'code' ? (
        <code className="da-chip-code">{preview}</code>
      ) : (
        <q className="da-chip-quote">{preview}</q>
      )}
      <button
        type="button"
        className="da-chip-remove"
        aria-label={fill(removeContext, { what })}
        onClick={onRemove}
      >
        ×
      </button>
    </li>
  );
}

/**
 * The question box: Enter sends, Shift+Enter adds a line. While an answer streams the button
 * is Stop and sending is off; typing stays possible so the next question can be prepared.
 */
export const Composer = forwardRef<HTMLTextAreaElement, ComposerProps>(function Composer(
  { busy, context, onSend, onStop, onRemoveContext },
  ref,
) {
  const {
    placeholder = 'Ask a question…',
    inputLabel = 'Your question',
    send: sendLabel = 'Send',
    stop = 'Stop',
    attached = 'Attached context',
  } = useTranslations('composer');
  const [text, setText] = useState('');
  const send = () => {
    if (!busy && text.trim() && onSend(text)) setText('');
  };
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    // isComposing: Enter that confirms an IME candidate (Japanese, Chinese…) must not send.
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      send();
    }
  };
  return (
    <form
      className="da-composer"
      data-state={busy ? 'busy' : 'idle'}
      onSubmit={(event) => {
        event.preventDefault();
        send();
      }}
    >
      {context.length > 0 && (
        <ul className="da-chips" aria-label={attached}>
          {context.map((item, index) => (
            <ContextChip
              key={`${index}:${item.value.slice(0, 20)}`}
              item={item}
              onRemove={() => onRemoveContext(index)}
            />
          ))}
        </ul>
      )}
      <div className="da-input-row">
        <textarea
          ref={ref}
          className="da-input"
          rows={1}
          value={text}
          placeholder={placeholder}
          aria-label={inputLabel}
          onChange={(event) => setText(event.target.value)}
          onKeyDown={onKeyDown}
        />
        {busy ? (
          <button type="button" className="da-send" data-action="stop" onClick={onStop}>
            {stop}
          </button>
        ) : (
          <button type="submit" className="da-send" data-action="send" disabled={!text.trim()}>
            {sendLabel}
          </button>
        )}
      </div>
    </form>
  );
});
