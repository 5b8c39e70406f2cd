import { STORAGE_KEYS } from '@huafang/contracts';
import { adminToken, launchBrowser, startServer } from '../e2e/harness';

const server = await startServer();
const browser = await launchBrowser();
const token = await adminToken(server);
for (const [w, h, mobile] of [[390, 844, true], [1440, 900, false]] as const) {
  for (const js of [false, true]) {
    const context = await browser.newContext({ viewport: { width: w, height: h }, isMobile: mobile, hasTouch: mobile, javaScriptEnabled: js,
      userAgent: mobile ? 'Mozilla/5.0 (Linux; Android 11) AppleWebKit/537.36 Chrome/130 Mobile Safari/537.36' : undefined });
    await context.addInitScript(([k, v]) => localStorage.setItem(k as string, v as string), [STORAGE_KEYS.authorization, token]);
    const page = await context.newPage();
    page.on('console', (m) => { if (m.type() === 'error') console.log('console', m.text()); });
    await page.goto(`${server.baseUrl}/draw`);
    await page.waitForTimeout(js ? 4000 : 500);
    await page.screenshot({ path: `/tmp/shots/draw-${w}-${js ? 'app' : 'frame'}.png` });
    await context.close();
  }
}
await browser.close();
await server.stop();
