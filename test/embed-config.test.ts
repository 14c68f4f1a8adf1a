import { describe, expect, it } from 'vitest';
import { configFromDataset, validateConfig } from '../src/embed/config.js';

const base = { domain: 'acme', baseUrl: 'https://api.example.com/' };

describe('script-tag options', () => {
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

  it('a page without domain, base URL or key on its script tag configures nothing', () => {
    expect(configFromDataset({ mode: 'panel' })).toBeUndefined();
  });
});
