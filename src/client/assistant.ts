import { classifyKey, wrongKeySentence } from '../protocol/keys.js';

export { assistantMessageUrl } from '../protocol/routes.js';

/**
 * Browser code may hold an assistant key only (SPEC §5). Throws at once, before anything is sent,
 * when given an admin key.
 */
export function assertBrowserSafeKey(apiKey: string | undefined): void {
  if (apiKey !== undefined && classifyKey(apiKey) === 'admin') {
    throw new Error(wrongKeySentence('docs-assistant: the apiKey', 'assistant', 'admin'));
  }
}
