// What each page of a browser walk is held to: a screenshot kept, axe's violations (none
// allowed), and, where asked, that it fits a phone's 390 px. The walks' browsers run no script;
// axe is one, so the page is opened again (each is a GET's) in a context with the same
// cookies, scripts on and the page's CSP set aside for it.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';

const AXE_SOURCE = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export const PHONE_WIDTH = 390;

export interface PageCheck {
  /** Screenshots go here as `{name}.jpeg`. */
  screens: string;
  /** The widths the page is checked at (the page's own when none). */
  widths?: readonly number[];
}

/** The page's screenshot kept; every problem found, each naming the page. */
export async function checkPage(browser: Browser, page: Page, name: string, check: PageCheck): Promise<string[]> {
  await page.screenshot({ path: path.join(check.screens, `${name}.jpeg`), type: 'jpeg', quality: 70, fullPage: true });
  const problems: string[] = [];
  for (const width of check.widths ?? [page.viewportSize()?.width ?? 1100]) {
    const checker = await browser.newContext({ bypassCSP: true, storageState: await page.context().storageState() });
    try {
      const again = await checker.newPage();
      await again.setViewportSize({ width, height: 900 });
      await again.goto(page.url());
      const scrolled = await again.evaluate(() => (globalThis as any).document.documentElement.scrollWidth as number);
      if (width === PHONE_WIDTH && scrolled > PHONE_WIDTH) problems.push(`${name}: ${scrolled} px wide at ${PHONE_WIDTH} px`);
      await again.addScriptTag({ content: AXE_SOURCE });
      const found: string[] = await again.evaluate(async () => {
        const result = await (globalThis as any).axe.run((globalThis as any).document, { resultTypes: ['violations'] });
        return result.violations.map((v: any) => `${v.id} (${v.impact}): ${v.nodes.length} × ${v.nodes.slice(0, 2).map((n: any) => n.target.join(' ')).join(', ')}`);
      });
      problems.push(...found.map((v) => `${name} at ${width} px: axe ${v}`));
    } finally {
      await checker.close();
    }
  }
  return problems;
}
