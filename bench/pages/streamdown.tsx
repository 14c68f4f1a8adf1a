import { Streamdown } from 'streamdown';
import { mountBaseline } from './_chat.js';

// Vercel's streaming Markdown renderer with its defaults (it splits into memoised blocks itself and
// completes unterminated Markdown); code highlighting is a separate plugin in v2, not added here.
mountBaseline(({ content }) => <Streamdown>{content}</Streamdown>);
