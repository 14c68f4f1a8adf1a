#!/usr/bin/env node
// In a clone the CLI runs from the build: say so instead of a module-not-found stack.
const { processIo, runCli } = await import('../dist/cli/index.js').catch((error) => {
  if (error?.code !== 'ERR_MODULE_NOT_FOUND' || !error.url?.endsWith('/dist/cli/index.js'))
    throw error;
  process.stderr.write(
    'docs-assistant is not built: run `npm run build` first (`npm start` does).\n',
  );
  process.exit(1);
});
process.exitCode = await runCli(process.argv.slice(2), processIo());
