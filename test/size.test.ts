import { describe, expect, it } from 'vitest';
import { measureSizes } from '../bench/size.js';

// Sizes are deterministic (unlike times), so their budgets are checked on every `npm test`.
describe('size budgets (gzip -9)', () => {
  it('keeps every shipped piece within its budget', async () => {
    const figures = await measureSizes();
    expect(figures).toHaveLength(4);
    for (const figure of figures)
      expect(
        figure.gzip,
        `${figure.name}: ${figure.gzip} B > ${figure.budget} B`,
      ).toBeLessThanOrEqual(figure.budget);
  });
});
