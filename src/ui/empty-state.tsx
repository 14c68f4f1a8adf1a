import { useTranslations } from './translations.js';

/** What an empty conversation shows: what the assistant is, and up to three questions to start with. */
export function EmptyState({
  starters,
  onAsk,
}: {
  starters: string[];
  onAsk(question: string): void;
}) {
  const {
    title = 'How can I help?',
    body = 'Answers come from this documentation, with links to the pages they cite.',
    startersTitle = 'Try asking',
  } = useTranslations('start');
  return (
    <div className="da-empty">
      <p className="da-empty-title">{title}</p>
      <p className="da-empty-body">{body}</p>
      {starters.length > 0 && (
        <div className="da-starters">
          <p className="da-starters-title">{startersTitle}</p>
          <QuestionButtons questions={starters} onAsk={onAsk} />
        </div>
      )}
    </div>
  );
}

/** Questions a reader can ask with one click: the starters, and the follow-ups after an answer. */
export function QuestionButtons({
  questions,
  onAsk,
}: {
  questions: string[];
  onAsk(question: string): void;
}) {
  return (
    <ul>
      {questions.map((question) => (
        <li key={question}>
          <button type="button" className="da-starter" onClick={() => onAsk(question)}>
            {question}
          </button>
        </li>
      ))}
    </ul>
  );
}
