import { assistantKeySentence, classifyKey } from '../protocol/keys.js';
import { MAX_RETRIEVAL_PAGE_SIZE } from '../protocol/limits.js';
import type { Filter } from '../protocol/types.js';
import type { Mode, Position, Theme } from '../ui/docs-assistant.js';
import type { DocsAssistantTranslations } from '../ui/translations.js';

/** Options of the script tag (data-* attributes, kebab-case) and of DocsAssistant.init (camelCase). */
export interface EmbedConfig {
  domain: string;
  baseUrl: string;
  apiKey?: string;
  /** The reader's id, by its wire name (SPEC §2.1 `fp`); the React widget's prop `userId`. @default 'anonymous' */
  fp?: string;
  retrievalPageSize?: number;
  filterVersion?: string;
  filterLanguage?: string;
  /** `auto` follows the host page's theme switch live. @default 'auto' */
  theme?: Theme;
  /** With `auto`: a CSS selector that matches exactly when the site is dark. @default undefined (common markers) */
  themeSelector?: string;
  mode?: Mode;
  /** With mode `panel`: move the page aside instead of covering it (`data-push` or `data-push="true"`). @default false */
  push?: boolean;
  /** @default 'bottom-right' */
  position?: Position;
  /** Send readers' thumbs to the server for the owner's insights; `false` (`data-send-feedback="false"`) turns it off. @default true */
  sendFeedback?: boolean | string;
  /** Launcher distance from the corner in px: `[x, y]`. @default [20, 20] */
  offset?: [number, number];
  starterQuestions?: string[];
  docsBaseUrl?: string;
  nonce?: string;
  /** @default 'mod+i' */
  openShortcut?: string;
  /** @default 'pre' */
  codeBlockSelector?: string;
  /** Where the chat files are, when the script's own URL cannot tell. @default beside the script */
  assetsUrl?: string;
  /** Every visible string, per component (the React prop's shape); JSON in `data-translations`. @default English */
  translations?: DocsAssistantTranslations;
}

export type ConfigResult = { ok: true; config: EmbedConfig } | { ok: false; error: string };

/**
 * The options that take one of a few words, and the words: the widget's own (test/embed-config
 * checks that each list holds every word of the widget's type).
 */
export const CHOICES = {
  theme: ['light', 'dark', 'system', 'auto'],
  mode: ['popover', 'modal', 'panel'],
  push: ['true', 'false'],
  position: ['bottom-right', 'bottom-left'],
} as const satisfies {
  theme: readonly Theme[];
  mode: readonly Mode[];
  push: readonly string[];
  position: readonly Position[];
};

/**
 * Reads the script tag's data-* attributes into the same shape `init()` takes: the dataset's
 * camelCase names are the option names; validateConfig reads only the options it knows.
 */
export function configFromDataset(data: DOMStringMap): Record<string, unknown> | undefined {
  if (!data.domain && !data.baseUrl && !data.apiKey) return undefined;
  return { ...data };
}

/** Options taken as written (trimmed): each name once, in the script every page loads. */
const TEXT_OPTIONS = [
  'fp',
  'filterVersion',
  'filterLanguage',
  'docsBaseUrl',
  'nonce',
  'openShortcut',
  'codeBlockSelector',
  'assetsUrl',
] as const;

const str = (value: unknown): string | undefined =>
  typeof value === 'string' && value.trim() ? value.trim() : undefined;

const fail = (error: string): ConfigResult => ({ ok: false, error: `docs-assistant: ${error}` });

/** Checks a raw config; every problem is one sentence for the console, never an exception. */
export function validateConfig(raw: Record<string, unknown>): ConfigResult {
  const domain = str(raw.domain);
  const baseUrl = str(raw.baseUrl);
  if (!domain) return fail('"domain" is required (data-domain on the script tag).');
  if (baseUrl === undefined)
    return fail(
      '"baseUrl" is required (data-base-url on the script tag), the API root of the service.',
    );
  const apiKey = str(raw.apiKey);
  const keyKind = apiKey === undefined ? undefined : classifyKey(apiKey);
  if (keyKind !== undefined && keyKind !== 'assistant')
    return {
      ok: false,
      error: `${assistantKeySentence('docs-assistant: data-api-key', keyKind)} Nothing was sent.`,
    };
  // `data-push` alone (an empty attribute) means yes.
  const push = String(raw.push ?? false) || 'true';
  const choices = { theme: str(raw.theme), mode: str(raw.mode), push, position: str(raw.position) };
  for (const [name, value] of Object.entries(choices))
    if (value && !(CHOICES[name as keyof typeof CHOICES] as readonly string[]).includes(value))
      return fail(`${name} must be one of ${CHOICES[name as keyof typeof CHOICES].join(', ')}.`);
  const { theme, mode, position } = choices;
  const offset = parseOffset(raw.offset);
  if (offset === null)
    return fail('offset must be one or two px distances, 0 to 400 ("24" or "24 80": across, up).');
  const themeSelector = str(raw.themeSelector);
  if (themeSelector && !validSelector(themeSelector))
    return fail(`theme-selector is not a valid CSS selector: ${themeSelector}`);
  const size =
    raw.retrievalPageSize === undefined || raw.retrievalPageSize === ''
      ? undefined
      : Number(raw.retrievalPageSize);
  if (
    size !== undefined &&
    !(Number.isInteger(size) && size >= 1 && size <= MAX_RETRIEVAL_PAGE_SIZE)
  )
    return fail(`retrieval-page-size must be a whole number from 1 to ${MAX_RETRIEVAL_PAGE_SIZE}.`);
  const translations = parseTranslations(raw.translations);
  if (translations === null)
    return fail('translations must be JSON groups of strings (see the README).');
  const starters = Array.isArray(raw.starterQuestions)
    ? raw.starterQuestions.map(String)
    : str(raw.starterQuestions)?.split('|');
  const questions = starters?.map((q) => q.trim()).filter(Boolean);
  const config: Record<string, unknown> = {
    domain,
    baseUrl: baseUrl.replace(/\/+$/, ''),
    apiKey,
    themeSelector,
    // Read as a yes/no by the chat code (sendsFeedback): false or "false" is no.
    sendFeedback: raw.sendFeedback,
    retrievalPageSize: size,
    theme,
    mode,
    push: push === 'true' || undefined,
    position,
    offset,
    translations,
    starterQuestions: questions?.length ? questions : undefined,
  };
  for (const key of TEXT_OPTIONS) config[key] = str(raw[key]);
  // Only what was given: a key that is present means the owner set it.
  for (const key in config) if (config[key] === undefined) delete config[key];
  return { ok: true, config: config as unknown as EmbedConfig };
}

/** Whether the widget sends thumbs to the server: yes unless `sendFeedback` is false or "false". */
export const sendsFeedback = (config: EmbedConfig): boolean =>
  String(config.sendFeedback).trim() !== 'false';

export function filterOf(config: EmbedConfig): Filter | undefined {
  if (!config.filterVersion && !config.filterLanguage) return undefined;
  return {
    ...(config.filterVersion ? { version: config.filterVersion } : {}),
    ...(config.filterLanguage ? { language: config.filterLanguage } : {}),
  };
}

/** `24` or `24 80` (also `24,80`, or `[24, 80]` from init): across and up, in px. Null when invalid. */
function parseOffset(raw: unknown): [number, number] | undefined | null {
  if (raw === undefined || raw === null || raw === '') return undefined;
  const parts = Array.isArray(raw)
    ? raw.map(Number)
    : String(raw)
        .trim()
        .split(/[\s,]+/)
        .map((p) => Number(p.replace(/px$/, '')));
  if (
    parts.length < 1 ||
    parts.length > 2 ||
    parts.some((n) => !Number.isFinite(n) || n < 0 || n > 400)
  )
    return null;
  return [parts[0]!, parts[1] ?? parts[0]!];
}

/** An object (or its JSON) of groups of strings; null when it is anything else. */
function parseTranslations(raw: unknown): DocsAssistantTranslations | undefined | null {
  if (!raw) return undefined;
  try {
    const value: unknown = typeof raw === 'string' ? JSON.parse(raw) : raw;
    const groups = Object.values(value as object);
    if (
      [value, ...groups].every((v) => v && typeof v === 'object' && !Array.isArray(v)) &&
      groups.every((group) => Object.values(group as object).every((s) => typeof s === 'string'))
    )
      return value as DocsAssistantTranslations;
  } catch {
    // not JSON
  }
  return null;
}

function validSelector(selector: string): boolean {
  if (typeof document === 'undefined') return true;
  try {
    document.createDocumentFragment().querySelector(selector);
    return true;
  } catch {
    return false;
  }
}
