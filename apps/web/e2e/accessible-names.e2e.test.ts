import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { pickTemplate } from './draw-ui';
import { ADMIN, newPage, registerInvitedUser, setupJourney } from './harness';
import { dialog, hidden, logInWhenAsked, loginDialog, loginWithAccount, toasts, visible } from './ui';

// A server of its own: it reads every name on pages that show other journeys' works and users.
const journey = setupJourney({ ownServer: true });

/**
 * Latin words that are product or technical terms a Chinese user reads as such. Everything else in an
 * accessible name (antd's "Increase Value", "Tab 1 of 4", @ant-design/icons' "delete") is English a screen
 * reader would speak in the middle of Chinese.
 */
const ALLOWED = new Set([
  'AI',
  'ControlNet',
  'LoRA',
  'PNG',
  'JPEG',
  'WebP',
  'GIF',
  'SD',
  'SDXL',
  'CFG',
  'VAE',
  'A1111',
  'Forge',
  'ComfyUI',
  'AUTOMATIC1111',
  'Photoshop',
  'PS',
  'ZIP',
  '3D',
  // 开放接口: the names developers know these by (issue 12 §5, docs/api.md).
  'API',
  'Webhook',
  // 审计日志's filters and export: IP 地址, API 密钥编号, 导出 CSV.
  'IP',
  'CSV',
]);

/** Roles whose name is UI text rather than content (a work's English prompt is content, not a label). */
const NAMED_ROLES =
  /^\s*- (button|link|tab|tablist|checkbox|radio|radiogroup|switch|spinbutton|slider|combobox|textbox|searchbox|menuitem|menu|menubar|img|dialog|region|navigation|banner|main|complementary|tabpanel|group|listbox|progressbar|tree|treeitem|separator|alert) "([^"]*)"/;

/** Every accessible name of the page that has a Latin word outside the allowed terms. */
async function englishNames(page: Page): Promise<string[]> {
  const snapshot = await page.locator('body').ariaSnapshot();
  const found = new Set<string>();
  const lines = snapshot.split('\n');
  for (const [index, line] of lines.entries()) {
    // A control with its icon hidden and no words of ours would be announced as a bare "button".
    const unnamed = /^\s*- (button|link|switch|checkbox|menuitem)(?: \[[^\]]*\])?:?$/.exec(line);
    if (unnamed) found.add(`${unnamed[1]} without a name, after ${lines[index - 1]?.trim()}`);
    const match = NAMED_ROLES.exec(line);
    if (!match) continue;
    const [, role, name = ''] = match;
    // Whole tokens, so a name like 3D is one word and not a stray "D".
    const words = (name.match(/[A-Za-z0-9+.-]+/g) ?? []).filter((token) => /[A-Za-z]/.test(token));
    if (words.some((word) => !ALLOWED.has(word.replace(/[.-]+$/, '')))) found.add(`${role} "${name}"`);
  }
  return [...found];
}

describe('accessible names are Chinese on the main pages', () => {
  for (const viewport of [
    { width: 1440, height: 900 },
    { width: 390, height: 844 },
  ]) {
    it(`names every control in Chinese at ${viewport.width}×${viewport.height}`, async () => {
      const { server, browser } = journey;
      const { context, page } = await newPage(browser);
      await page.setViewportSize(viewport);
      // Collected over every page, so one run lists all the names to fix.
      const problems: string[] = [];
      const expectChineseNames = async (where: Page, label: string) => {
        for (const name of await englishNames(where)) problems.push(`${label}: ${name}`);
      };

      await page.goto(`${server.baseUrl}/`);
      await visible(page.getByRole('heading').first());
      await expectChineseNames(page, '首页');

      await page.goto(`${server.baseUrl}/?login=1`);
      await visible(loginDialog(page));
      await expectChineseNames(page, '登录框');

      const user = await registerInvitedUser(server);
      await loginWithAccount(page, user.account, user.password);
      await page.waitForURL('**/draw');
      await pickTemplate(page, '国风插画', '国潮插画');
      await hidden(toasts(page));
      await expectChineseNames(page, '/draw');

      for (const path of ['/omnibus', '/tasks', '/chuangyi', '/myGallery', '/account/api-keys', '/account/webhooks']) {
        await page.goto(`${server.baseUrl}${path}`);
        await page.waitForLoadState('networkidle');
        await expectChineseNames(page, path);
      }
      // 开放接口's two forms: the scope and event checkboxes are named by their Chinese labels.
      for (const [path, title] of [
        ['/account/api-keys', '创建密钥'],
        ['/account/webhooks', '添加接收地址'],
      ] as const) {
        await page.goto(`${server.baseUrl}${path}`);
        await page.getByRole('button', { name: title }).click();
        await visible(dialog(page, title).getByRole('checkbox').first());
        await expectChineseNames(page, `${path} ${title}`);
        await page.keyboard.press('Escape');
        await hidden(dialog(page, title));
      }
      await context.close();

      const admin = await newPage(browser);
      await admin.page.setViewportSize(viewport);
      await admin.page.goto(`${server.baseUrl}/?login=1`);
      await logInWhenAsked(admin.page, ADMIN.account, ADMIN.password);
      await admin.page.waitForURL('**/draw');
      for (const path of [
        '/model',
        '/admin',
        '/admin/backends',
        '/admin/users',
        '/admin/compliance',
        '/admin/sensitive-words',
        '/admin/audit-log',
      ]) {
        await admin.page.goto(`${server.baseUrl}${path}`);
        await admin.page.waitForLoadState('networkidle');
        await expectChineseNames(admin.page, path);
      }
      // A focused tab announces its position ("Tab 1 of 2" in antd's own words).
      await admin.page.goto(`${server.baseUrl}/model`);
      await admin.page.getByRole('tab', { name: '模型' }).focus();
      await expectChineseNames(admin.page, '/model 聚焦标签');
      await admin.context.close();
      expect(problems).toEqual([]);
    });
  }
});
