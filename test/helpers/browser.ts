import fs from 'node:fs';

/** Debian's Chromium, which .ci/run installs; the browser tests drive it through playwright-core. */
export const CHROMIUM = '/usr/bin/chromium';
export const FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

/**
 * Why the browser tests are skipped, or false when they run. They run wherever the browser is and
 * always in CI, but for a run with TEST_BROWSER=skip: a run whose subject is not the browser's
 * rendering (CI's run on a newer Node, where the server's side of these pages is what other tests cover).
 */
export const skipWithoutBrowser: string | false =
  process.env.TEST_BROWSER === 'skip'
    ? 'TEST_BROWSER=skip'
    : fs.existsSync(CHROMIUM) || process.env.CI === 'true'
      ? false
      : `no browser at ${CHROMIUM} (.ci/run installs Debian's chromium)`;
