import { describe, expect, expectTypeOf, it } from 'vitest';
import { CHOICES, configFromDataset, sendsFeedback, validateConfig } from '../src/embed/config.js';
import type { Mode, Position, Theme } from '../src/ui/docs-assistant.js';

const base = { domain: 'acme', baseUrl: 'https://api.example.com/' };

describe('script-tag options', () => {
  it('takes every theme, mode and position the widget’s props take, and no other word', () => {
    // Checked by the type check: a word the widget learns fails it until the script tag knows it.
    expectTypeOf<(typeof CHOICES.theme)[number]>().toEqualTypeOf<Theme>();
    expectTypeOf<(typeof CHOICES.mode)[number]>().toEqualTypeOf<Mode>();
    expectTypeOf<(typeof CHOICES.position)[number]>().toEqualTypeOf<Position>();
    for (const theme of CHOICES.theme)
      expect(validateConfig({ ...base, theme })).toMatchObject({ ok: true, config: { theme } });
    expect(validateConfig({ ...base, theme: 'sepia' })).toMatchObject({
      ok: false,
      error: 'docs-assistant: theme must be one of light, dark, system, auto.',
    });
  });

  it('reads the data-* attributes by their option names and ignores the ones it does not know', () => {
    const result = validateConfig(
      configFromDataset({ ...base, mode: 'panel', push: '', unknownThing: 'x' })!,
    );
    expect(result).toEqual({
      ok: true,
      config: { domain: 'acme', baseUrl: 'https://api.example.com', mode: 'panel', push: true },
    });
  });

  it('a bare data-push, "true" and true push; "false", false and no value do not', () => {
    const push = (value: unknown) => {
      const result = validateConfig({ ...base, mode: 'panel', push: value });
      return result.ok ? (result.config.push ?? false) : result.error;
    };
    expect([push(''), push('true'), push(true)]).toEqual([true, true, true]);
    expect([push('false'), push(false), push(undefined)]).toEqual([false, false, false]);
    expect(push('yes')).toBe('docs-assistant: push must be one of true, false.');
  });

  it('data-send-feedback="false" keeps thumbs on the page; anything else sends them to the server', () => {
    const sends = (value: unknown) => {
      const result = validateConfig(configFromDataset({ ...base, sendFeedback: value as string })!);
      return result.ok && sendsFeedback(result.config);
    };
    expect([sends('false'), sends(false), sends(' false ')]).toEqual([false, false, false]);
    expect([sends('true'), sends(true), sends(undefined), sends('')]).toEqual([
      true,
      true,
      true,
      true,
    ]);
  });

  it('a page without domain, base URL or key on its script tag configures nothing', () => {
    expect(configFromDataset({ mode: 'panel' })).toBeUndefined();
  });
});

const site = { domain: 'acme', baseUrl: 'https://api.example.com' };

describe('script tag translations', () => {
  it('reads data-translations as JSON and init({ translations }) as an object', () => {
    const fromTag = configFromDataset({
      ...site,
      translations: '{"launcher":{"buttonText":"Demander à l’IA"},"composer":{"send":"Envoyer"}}',
    })!;
    expect(validateConfig(fromTag)).toEqual({
      ok: true,
      config: {
        ...site,
        translations: {
          launcher: { buttonText: 'Demander à l’IA' },
          composer: { send: 'Envoyer' },
        },
      },
    });
    const translations = { header: { title: 'Documentation' } };
    expect(validateConfig({ ...site, translations })).toMatchObject({
      ok: true,
      config: { translations },
    });
    expect(validateConfig({ ...site, translations: '' })).toEqual({ ok: true, config: site });
  });

  it.each([
    ['JSON that does not parse', '{"launcher":'],
    ['a group that is a string', '{"launcher":"Demander"}'],
    ['a string that is not text', '{"launcher":{"buttonText":42}}'],
    ['a list', '[{"buttonText":"x"}]'],
    ['a plain string', '"Demander"'],
  ])('refuses %s with one sentence', (_, translations) => {
    expect(validateConfig({ ...site, translations })).toEqual({
      ok: false,
      error: 'docs-assistant: translations must be JSON groups of strings (see the README).',
    });
  });
});
