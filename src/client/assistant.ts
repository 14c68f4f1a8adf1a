import { classifyKey } from '../protocol/keys.js';

/** SPEC §4.1: `{base_url}/discovery/v1/assistant/{domain}/message`; an empty base URL means same origin. */
export function assistantMessageUrl(baseUrl: string, domain: string): string {
  return `${baseUrl.replace(/\/+$/, '')}/discovery/v1/assistant/${encodeURIComponent(domain)}/message`;
}

/**
 * Browser code may hold an assistant key only (SPEC §5). Throws at once, before anything is sent,
 * when given an admin key.
 */
export function assertBrowserSafeKey(apiKey: string | undefined): void {
  if (apiKey !== undefined && classifyKey(apiKey) === 'admin') {
    throw new Error(
      'docs-assistant: the apiKey is an admin key (svc_…). Admin keys are server-side secrets that can change ' +
        'your organisation; anyone can read keys in page code. Use an assistant key (svc_dsc_…) instead, and revoke this one.',
    );
  }
}
