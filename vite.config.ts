import { resolve } from 'node:path';
import { defineConfig } from 'vitest/config';

const here = import.meta.dirname;

export default defineConfig({
  // The demo site (gallery, React page) is built from demo/ into dist/demo; the server serves it.
  root: resolve(here, 'demo'),
  base: './',
  build: {
    outDir: resolve(here, 'dist/demo'),
    emptyOutDir: true,
    rollupOptions: {
      input: {
        gallery: resolve(here, 'demo/index.html'),
        state: resolve(here, 'demo/gallery/state.html'),
      },
    },
  },
  test: {
    root: here,
    include: ['test/**/*.test.{ts,tsx}'],
    environment: 'node',
    // Server tests stream whole answers; the default 5 s is tight on a shared 2-core machine.
    testTimeout: 20_000,
  },
});
