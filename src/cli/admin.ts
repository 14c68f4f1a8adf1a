// What the commands that call the service with the admin key share: where the key and the API
// root come from, and how a failed call is told in terms of those settings.

import { AssistantError } from '../client/errors.js';
import { classifyKey, KEY_EXAMPLE, wrongKeySentence } from '../protocol/keys.js';
import { EXIT, stringOption, urlOption, UsageError, type CliIo, type OptionValues } from './io.js';

const DEFAULT_BASE_URL = 'http://127.0.0.1:4321';
const ADMIN_KEY_ENV = 'DOCS_ASSISTANT_ADMIN_KEY';

/** The admin key (from the environment, never a flag) and the API root a command talks to. */
export function adminSettings(
  values: OptionValues,
  io: CliIo,
): { adminKey: string; baseUrl: string } {
  const adminKey = io.env[ADMIN_KEY_ENV]?.trim();
  if (!adminKey)
    throw new UsageError(
      `Set ${ADMIN_KEY_ENV} to your admin key (${KEY_EXAMPLE.admin}). It is read from the environment so it never lands in shell history.`,
    );
  const keyKind = classifyKey(adminKey);
  if (keyKind !== 'admin') throw new UsageError(wrongKeySentence(ADMIN_KEY_ENV, 'admin', keyKind));
  const baseUrl = urlOption(
    stringOption(values['base-url']) ??
      stringOption(io.env.DOCS_ASSISTANT_BASE_URL) ??
      DEFAULT_BASE_URL,
    '--base-url',
  );
  return { adminKey, baseUrl };
}

/** A failed call to the service as sentences about the user's settings; exit code 1 (3 when stopped). */
export function reportError(error: unknown, io: CliIo, baseUrl: string, jobId?: string): number {
  if (error instanceof Error && error.name === 'AbortError') {
    io.stderr.write(
      `\nStopped waiting.${jobId ? ` The export goes on on the server; check it with: docs-assistant export status ${jobId}` : ''}\n`,
    );
    return EXIT.interrupted;
  }
  if (error instanceof AssistantError) {
    const code = error.code ?? error.kind;
    const where = error.status ? ` (HTTP ${error.status} ${code})` : ` (${code})`;
    // The client's sentences speak HTTP ("Authorization: Bearer …"); this user set an environment
    // variable and maybe --base-url, so a refused key and an absent server are said in those terms.
    const refused = error.code === 'unauthorized';
    const lines = [
      (error.code === 'job_failed' ? `Export ${jobId ?? ''} failed: ` : '') +
        (refused
          ? `The server at ${baseUrl} refused the admin key read from ${ADMIN_KEY_ENV}`
          : error.message) +
        where,
    ];
    if (refused)
      lines.push(
        `Set ${ADMIN_KEY_ENV} to an admin key of the organisation that owns this domain on that server.`,
      );
    else if (error.code === 'network' && error.message.startsWith('Could not reach'))
      lines.push(
        `Is the docs-assistant server running at ${baseUrl}? Start it with "docs-assistant serve", or pass --base-url (or set DOCS_ASSISTANT_BASE_URL) for another address.`,
      );
    io.stderr.write(`${lines.join('\n')}\n`);
    return EXIT.failed;
  }
  throw error;
}
