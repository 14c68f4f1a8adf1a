import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.{ts,tsx}'],
    environment: 'node',
    // Server tests stream whole answers; the default 5 s is tight on a shared 2-core machine.
    testTimeout: 20_000,
  },
});
