import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import { isRecord } from '../../protocol/_guards.js';
import { classifyKey, describeIssues, wrongKeySentence } from '../../protocol/index.js';

/** SPEC §1: what a deployment may use depends on where it runs. */
export const DEPLOYMENT_TYPES = ['cloud', 'client-hosted', 'air-gapped'] as const;

const httpUrl = z
  .string()
  .url()
  .refine((value) => /^https?:\/\//i.test(value), 'must be an http(s) URL');

/**
 * The chart values the host reads (SPEC §2.6 plus the deployment type and the assistant).
 * Unknown keys are ignored, so the chart's whole values.yaml can be handed to the host as it is.
 */
export const hostValuesSchema = z.object({
  deployment: z.object({ type: z.enum(DEPLOYMENT_TYPES).default('cloud') }).default({}),
  staticExport: z
    .object({
      enabled: z.boolean().default(false),
      bundleUrl: z.string().optional(),
      version: z.string().min(1).optional(),
    })
    .default({}),
  assistant: z
    .object({
      /** False turns the launcher off; true means "where the deployment type allows it" (never air-gapped). @default true */
      enabled: z.boolean().optional(),
      /** Domain identifier; the bundle manifest's domain when absent. */
      domain: z
        .string()
        .regex(/^[\w.-]{1,100}$/)
        .optional(),
      /** API root the widget calls (cloud, or a client-hosted service of your own). */
      baseUrl: httpUrl.optional(),
      /** Public assistant key (`svc_dsc_…`); never an admin key. */
      apiKey: z.string().optional(),
      /** Client-hosted proxy mode: the host forwards the assistant to this service with DOCS_ASSISTANT_UPSTREAM_KEY. */
      upstream: httpUrl.optional(),
    })
    .default({}),
});

export type HostValues = z.infer<typeof hostValuesSchema>;

/** Every key the host reads, as the path in the values file; the environment name is derived from it. */
export const VALUE_KEYS = [
  'deployment.type',
  'staticExport.enabled',
  'staticExport.bundleUrl',
  'staticExport.version',
  'assistant.enabled',
  'assistant.domain',
  'assistant.baseUrl',
  'assistant.apiKey',
  'assistant.upstream',
] as const;

const BOOLEAN_KEYS = new Set<string>(['staticExport.enabled', 'assistant.enabled']);

/** `staticExport.bundleUrl` → `DOCS_ASSISTANT_STATIC_EXPORT_BUNDLE_URL`. */
export function envNameOf(key: string): string {
  return `DOCS_ASSISTANT_${key
    .replace(/\./g, '_')
    .replace(/([a-z])([A-Z])/g, '$1_$2')
    .toUpperCase()}`;
}

export class ValuesError extends Error {}

/** What the pages get: the assistant's script tag settings, or none (and why). */
export type AssistantPlan =
  | { mode: 'direct'; domain: string | undefined; baseUrl: string; apiKey?: string }
  | { mode: 'proxy'; domain: string | undefined; upstream: string }
  | { mode: 'off'; reason: string };

/**
 * Reads the values file (YAML; JSON is YAML too) and lays the environment over it, so a container
 * can be configured with variables alone.
 */
export function readValues(
  fileText: string | undefined,
  env: Record<string, string | undefined>,
): HostValues {
  let raw: unknown = {};
  if (fileText !== undefined) {
    try {
      raw = parseYaml(fileText) ?? {};
    } catch (error) {
      throw new ValuesError(
        `The values file is not valid YAML: ${(error as Error).message.split('\n')[0]}`,
      );
    }
    if (typeof raw !== 'object' || Array.isArray(raw))
      throw new ValuesError(
        'The values file must be a mapping of keys (staticExport:, deployment:, assistant:).',
      );
  }
  // Helm charts spell "not set" as "" (and YAML as ~): both mean the key is absent.
  const cleaned: unknown = JSON.parse(JSON.stringify(raw), (_key, value: unknown) =>
    value === '' || value === null ? undefined : value,
  );
  // Checked above: a mapping (or nothing); the schema below checks every group and key.
  const merged: Record<string, unknown> = isRecord(cleaned) ? cleaned : {};
  for (const key of VALUE_KEYS) {
    const value = env[envNameOf(key)];
    if (value === undefined || value === '') continue;
    const [group = '', name = ''] = key.split('.');
    const known = merged[group];
    merged[group] = {
      ...(isRecord(known) ? known : {}),
      [name]: BOOLEAN_KEYS.has(key) ? parseBoolean(value, envNameOf(key)) : value,
    };
  }
  const parsed = hostValuesSchema.safeParse(merged);
  if (!parsed.success) throw new ValuesError(`Invalid values: ${describeIssues(parsed.error)}`);
  const values = parsed.data;
  if (values.staticExport.enabled && !values.staticExport.bundleUrl) {
    throw new ValuesError(
      `staticExport.enabled is true but staticExport.bundleUrl is not set (or ${envNameOf('staticExport.bundleUrl')}).`,
    );
  }
  if (values.staticExport.bundleUrl && !/^https?:\/\//i.test(values.staticExport.bundleUrl)) {
    throw new ValuesError(
      'staticExport.bundleUrl must be an http(s) URL (the bundleUrl of the bundle operation).',
    );
  }
  const keyKind = values.assistant.apiKey ? classifyKey(values.assistant.apiKey) : 'assistant';
  if (keyKind !== 'assistant')
    throw new ValuesError(wrongKeySentence('assistant.apiKey', 'assistant', keyKind));
  return values;
}

function parseBoolean(value: string, name: string): boolean {
  if (/^(true|1|yes)$/i.test(value)) return true;
  if (/^(false|0|no)$/i.test(value)) return false;
  throw new ValuesError(`${name} must be true or false, got "${value}".`);
}

/** Decides what the pages carry, by deployment type (SPEC §1 table). Throws when the values contradict each other. */
export function planAssistant(values: HostValues): AssistantPlan {
  const { type } = values.deployment;
  const { enabled, domain, baseUrl, apiKey, upstream } = values.assistant;
  if (type === 'air-gapped') {
    if (upstream || baseUrl)
      throw new ValuesError(
        'An air-gapped deployment cannot use assistant.upstream or assistant.baseUrl.',
      );
    return {
      mode: 'off',
      reason:
        'air-gapped deployment: the assistant is not available, the bundle search works offline',
    };
  }
  if (enabled === false) return { mode: 'off', reason: 'assistant.enabled is false' };
  if (upstream) {
    if (type !== 'client-hosted')
      throw new ValuesError(
        'assistant.upstream (proxy mode) is for client-hosted deployments; a cloud deployment sets assistant.baseUrl.',
      );
    if (baseUrl)
      throw new ValuesError(
        'Give assistant.upstream (the host proxies) or assistant.baseUrl (pages call it directly), not both.',
      );
    if (apiKey)
      throw new ValuesError(
        'In proxy mode the key comes from DOCS_ASSISTANT_UPSTREAM_KEY on the server, not assistant.apiKey in the pages.',
      );
    return { mode: 'proxy', domain, upstream: upstream.replace(/\/+$/, '') };
  }
  if (!baseUrl) return { mode: 'off', reason: 'no assistant.baseUrl or assistant.upstream is set' };
  return {
    mode: 'direct',
    domain,
    baseUrl: baseUrl.replace(/\/+$/, ''),
    ...(apiKey ? { apiKey } : {}),
  };
}
