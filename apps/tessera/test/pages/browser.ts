/**
 * The pages' browser tests: Debian's Chromium (tools/install.sh browser) driven by playwright-core,
 * headless, against the embedded platform launched as a real process (`tessera serve`).
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { launchTessera, tempDir, type LaunchedProcess } from '@tessera/testkit';

const run = promisify(execFile);
const INSTALL = fileURLToPath(new URL('../../../../tools/install.sh', import.meta.url));

/** Where screenshots go as test artifacts (gitignored); docs/screenshots/ holds chosen copies. */
export const ARTIFACTS = fileURLToPath(new URL('../../.artifacts/screenshots/', import.meta.url));

interface Teardown {
  teardown(fn: () => unknown): void;
}

/** Installs Chromium if needed (idempotent) and returns its executable. */
async function chromiumExecutable(): Promise<string> {
  await run('bash', [INSTALL, 'browser'], { timeout: 1_800_000 });
  const found = ['/usr/bin/chromium', '/usr/lib/chromium/chromium'].find((path) => existsSync(path));
  if (found === undefined) throw new Error('tools/install.sh browser installed no chromium');
  return found;
}

export async function launchBrowser(t: Teardown): Promise<Browser> {
  const browser = await chromium.launch({
    executablePath: await chromiumExecutable(),
    headless: true,
    // As root (containers, CI) Chromium refuses to start with its sandbox.
    args: process.getuid?.() === 0 ? ['--no-sandbox'] : [],
  });
  t.teardown(() => browser.close());
  return browser;
}

/** `tessera serve` on a random port with its data in a temporary folder. */
export async function launchPlatform(
  t: Teardown,
  env: Record<string, string> = {},
): Promise<LaunchedProcess> {
  const platform = await launchTessera(['serve'], {
    env: { DATA_DIR: tempDir(t, 'tessera-pages-'), ...env },
  });
  t.teardown(() => platform.stop());
  return platform;
}

/** A tab of its own (its own sessionStorage), failing the test on any page error or CSP report. */
export async function openTab(
  t: Teardown & { fail(message: string): void },
  browser: Browser,
  viewport = { width: 1280, height: 860 },
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport });
  t.teardown(() => context.close());
  const page = await context.newPage();
  page.on('pageerror', (error) => t.fail(`page error: ${error.message}`));
  page.on('console', (message) => {
    // A CSP violation shows as a console error: the pages must not need anything it forbids.
    if (message.type() === 'error' && /Content Security Policy/i.test(message.text())) {
      t.fail(`CSP violation: ${message.text()}`);
    }
  });
  return { context, page };
}

/** Signs in on /signin/ as `sub` with exactly `scopes`, then lands on `next`. */
export async function signIn(page: Page, base: string, sub: string, scopes: readonly string[], next: string) {
  await page.goto(`${base}/signin/?next=${encodeURIComponent(next)}`);
  await page.getByLabel('User id').fill(sub);
  for (const box of await page.locator('input[name=scope]').all()) {
    const value = await box.getAttribute('value');
    await box.setChecked(value !== null && scopes.includes(value));
  }
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(`${base}${next}`);
}

/** Writes a full-page screenshot to the artifacts folder and returns its path. */
export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(ARTIFACTS, { recursive: true });
  const path = join(ARTIFACTS, `${name}.png`);
  await page.screenshot({ path, fullPage: true });
  return path;
}

/** A token from the platform's own sign-in route (what the page does), for setup through the API. */
export async function tokenFor(base: string, sub: string, scopes: readonly string[]): Promise<string> {
  const response = await fetch(`${base}/signin/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ sub, scopes }),
  });
  if (!response.ok) throw new Error(`sign-in refused: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { token: string }).token;
}

/**
 * The form controls of the page that have no accessible name (a <label>, aria-label or
 * aria-labelledby): every control must say what it is to a screen reader.
 */
export function unlabelledControls(page: Page): Promise<string[]> {
  return page.locator('input:not([type=hidden]), select, textarea, button').evaluateAll((elements) =>
    elements
      .map(
        (element) =>
          element as unknown as {
            id: string;
            outerHTML: string;
            textContent: string | null;
            labels?: { length: number } | null;
            getAttribute(name: string): string | null;
          },
      )
      .filter(
        (control) =>
          (control.labels?.length ?? 0) === 0 &&
          !control.getAttribute('aria-label') &&
          !control.getAttribute('aria-labelledby') &&
          (control.textContent ?? '').trim() === '',
      )
      .map((control) => control.outerHTML.slice(0, 120)),
  );
}
