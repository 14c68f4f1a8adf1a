/**
 * Debian's Chromium (Playwright cannot download browsers here), launched without background
 * traffic; the e2e suites and the browser benchmarks all use these options.
 */
export const CHROMIUM = {
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: [
    '--no-sandbox',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--no-first-run',
    '--disable-gpu',
  ],
};
