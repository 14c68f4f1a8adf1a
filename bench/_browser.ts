import { chromium, type Browser } from 'playwright-core';
import { CHROMIUM } from '../e2e/chromium.js';

/** Debian's Chromium, launched as the e2e suite does (no downloads, no background traffic). */
export function launchChromium(): Promise<Browser> {
  return chromium.launch(CHROMIUM);
}
