import { Ajv } from 'ajv';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse, parseDocument } from 'yaml';
import { chartValues } from '../src/cli/export.js';
import { readValues, VALUE_KEYS } from '../src/server/host/index.js';
import { exportedBundle } from './helpers/host.js';

const CHART = join(import.meta.dirname, '..', 'deploy', 'helm', 'docs-assistant');
const read = (name: string) => readFile(join(CHART, name), 'utf8');

async function validator() {
  const schema = JSON.parse(await read('values.schema.json')) as object;
  return new Ajv({ allErrors: true, strict: true }).compile(schema);
}

/** Helm merges the user's values over the chart's values.yaml, then validates the result. */
function merge(
  base: Record<string, unknown>,
  over: Record<string, unknown>,
): Record<string, unknown> {
  const out = { ...base };
  for (const [key, value] of Object.entries(over)) {
    const current = out[key];
    out[key] =
      value &&
      typeof value === 'object' &&
      !Array.isArray(value) &&
      current &&
      typeof current === 'object'
        ? merge(current as Record<string, unknown>, value as Record<string, unknown>)
        : value;
  }
  return out;
}

/** A YAML lint: strict parsing, no duplicate keys, no warnings. */
function lint(text: string): string[] {
  const doc = parseDocument(text, { strict: true, uniqueKeys: true, prettyErrors: true });
  return [...doc.errors, ...doc.warnings].map((problem) => problem.message);
}

const leafKeys = (value: unknown, prefix = ''): string[] =>
  value && typeof value === 'object' && !Array.isArray(value)
    ? Object.entries(value).flatMap(([key, inner]) =>
        leafKeys(inner, prefix ? `${prefix}.${key}` : key),
      )
    : [prefix];

describe('the Helm chart', () => {
  it('accepts the values the export CLI writes for a real bundle, alone and merged over the chart defaults', async () => {
    const validate = await validator();
    const defaults = parse(await read('values.yaml')) as Record<string, unknown>;
    const { bundleUrl } = await exportedBundle({ version: '2026-11' });
    for (const version of ['2026-11', undefined]) {
      const written = parse(chartValues(bundleUrl, version)) as Record<string, unknown>;
      expect(validate(written), JSON.stringify(validate.errors)).toBe(true);
      expect(validate(merge(defaults, written)), JSON.stringify(validate.errors)).toBe(true);
      // ...and the host reads the merged file as its values.
      expect(readValues(JSON.stringify(merge(defaults, written)), {}).staticExport).toEqual({
        enabled: true,
        bundleUrl,
        ...(version ? { version } : {}),
      });
    }
  });

  it('refuses values a deployment could not run with', async () => {
    const validate = await validator();
    const defaults = parse(await read('values.yaml')) as Record<string, unknown>;
    const bad: [string, Record<string, unknown>][] = [
      ['enabled without a link', { staticExport: { enabled: true } }],
      [
        'a link that is not http(s)',
        { staticExport: { enabled: true, bundleUrl: 'file:///etc/passwd' } },
      ],
      ['an unknown deployment type', { deployment: { type: 'on-prem' } }],
      ['an admin key in the pages', { assistant: { apiKey: 'svc_acme_admin' } }],
      ['a misspelt key', { staticExport: { bundleURL: 'https://x' } }],
    ];
    for (const [what, values] of bad) expect(validate(merge(defaults, values)), what).toBe(false);
  });

  it('holds exactly the keys the host reads in its deployment, staticExport and assistant groups', async () => {
    const defaults = parse(await read('values.yaml')) as Record<string, unknown>;
    const hostKeys = leafKeys({
      deployment: defaults.deployment,
      staticExport: defaults.staticExport,
      assistant: defaults.assistant,
    }).sort();
    expect(hostKeys).toEqual([...VALUE_KEYS].sort());
    const schema = JSON.parse(await read('values.schema.json')) as {
      properties: Record<string, { properties?: Record<string, unknown> }>;
    };
    const schemaKeys = ['deployment', 'staticExport', 'assistant'].flatMap((group) =>
      Object.keys(schema.properties[group]!.properties!).map((key) => `${group}.${key}`),
    );
    expect(schemaKeys.sort()).toEqual([...VALUE_KEYS].sort());
    // The chart's own defaults validate, and the host runs with them (nothing served until enabled).
    expect((await validator())(defaults)).toBe(true);
    expect(readValues(await read('values.yaml'), {}).staticExport.enabled).toBe(false);
  });

  it('has YAML files that pass a strict lint, and templates whose YAML lines do too', async () => {
    for (const name of ['Chart.yaml', 'values.yaml'])
      expect(lint(await read(name)), name).toEqual([]);
    const defaults = parse(await read('values.yaml')) as Record<string, unknown>;
    const templates = (await readdir(join(CHART, 'templates'))).filter((name) =>
      name.endsWith('.yaml'),
    );
    expect(templates.sort()).toEqual(['deployment.yaml', 'secret.yaml', 'service.yaml']);
    for (const name of templates) {
      const text = await read(join('templates', name));
      // A line that is only a template action renders to nothing; an inline action is one scalar.
      const yamlOnly = text
        .split('\n')
        .filter((line) => !/^\s*\{\{-?.*-?\}\}\s*$/.test(line))
        .map((line) => line.replace(/"?\{\{.*?\}\}"?/g, 'placeholder'))
        .join('\n');
      expect(lint(yamlOnly), name).toEqual([]);
      // Every .Values path a template reads exists in values.yaml.
      for (const [, path] of text.matchAll(/\.Values\.([\w.]+)/g)) {
        const value = path!
          .split('.')
          .reduce<unknown>(
            (node, key) => (node as Record<string, unknown> | undefined)?.[key],
            defaults,
          );
        expect(value, `${name} reads .Values.${path}`).not.toBeUndefined();
      }
    }
  });
});
