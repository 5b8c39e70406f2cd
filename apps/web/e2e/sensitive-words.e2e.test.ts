import type { FileChooser, Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import {
  ADMIN,
  api,
  downloadedText,
  freeCreationBody,
  loggedInOnDraw,
  type RegisteredUser,
  registerInvitedUser,
  type ScreenName,
  screenshot,
  setupJourney,
} from './harness';
import {
  chooseOption,
  confirmWith,
  dialog,
  hidden,
  openAdminPage,
  popconfirm,
  press,
  seeToast,
  sidewaysOverflow,
  toast,
  toasts,
  visible,
} from './ui';

// A server of its own: the sensitive-word list applies to every prompt on a server.
const journey = setupJourney({ ownServer: true });

const REFUSAL = '画面描述包含不当内容，请修改后再试';

/** A Chinese word nobody's prompt or demo content holds: four characters picked at random from rare ones. */
function rareWord(): string {
  const pool = '翟鏖蘩蠡夔犇龘靐齉麤鱻灥厵孨猋骉麣朤淼焱垚赑聶';
  return Array.from({ length: 4 }, () => pool[Math.floor(Math.random() * pool.length)]).join('');
}

/** 敏感词库 from the admin menu: in the side menu on a desktop, behind 后台菜单 on a phone. */
function openWords(page: Page, screen: ScreenName): Promise<void> {
  return openAdminPage(page, journey.server.baseUrl, screen, '敏感词库', '/admin/sensitive-words');
}

/**
 * Presses `button` until the browser's file chooser opens: a press that lands while the dialog is still opening can
 * be lost on a loaded machine, and a person would press again.
 */
async function openFileChooser(page: Page, screen: ScreenName, button: Locator): Promise<FileChooser> {
  for (let attempt = 0; attempt < 3; attempt++) {
    const [chooser] = await Promise.all([
      page.waitForEvent('filechooser', { timeout: 8_000 }).catch(() => null),
      press(screen, button),
    ]);
    if (chooser) return chooser;
  }
  throw new Error('从文件读取 opened no file chooser');
}

const wordRow = (page: Page, word: string) => page.locator('.ant-table-row').filter({ hasText: word });

/**
 * 删除 on the word's row, then 删除 in its confirmation, until the server's 删除成功 shows. On a loaded machine a tap
 * can land while the confirmation is still opening and be lost; a person taps again, and so does this.
 */
async function deleteWithConfirmation(page: Page, screen: ScreenName, confirm: Locator, word: string): Promise<void> {
  for (let attempt = 0; attempt < 3; attempt++) {
    if (!(await confirm.first().isVisible())) {
      await press(screen, wordRow(page, word).getByRole('button', { name: '删除' }));
    }
    await confirmWith(confirm, '删除', (target) => press(screen, target));
    try {
      await visible(toast(page, '删除成功'), 5_000);
      await hidden(toasts(page));
      return;
    } catch {
      // Nothing was sent: ask again.
    }
  }
  throw new Error(`deleting ${word} never showed 删除成功`);
}

/** 自由创作 as the user: a prompt with `word` in it, then 生成. */
async function generateWith(page: Page, screen: ScreenName, word: string): Promise<void> {
  await page.goto(`${journey.server.baseUrl}/chuangyi`);
  await page.getByRole('textbox', { name: '画面描述' }).fill(`城市夜景，${word}，霓虹`);
  await press(screen, page.locator('.hf-generate-bar').getByRole('button', { name: '生成' }));
}

/** The server's answer to the same prompt, as /chuangyi sends it. */
function predictAnswer(user: RegisteredUser, word: string) {
  return api(journey.server, 'POST', '/api/generate/task/predict', {
    token: user.token,
    body: freeCreationBody({ prompt: word, steps: 8, batchSize: 1 }),
  });
}

describe('敏感词库', () => {
  for (const screen of ['desktop', 'phone'] as const) {
    it(`lets an admin add, find, import, export and delete words at ${screen} size, and refuses a user's prompt`, async () => {
      const { server } = journey;
      const category = `测试${screen === 'desktop' ? '桌面' : '手机'}`;
      const [added, imported, importedElsewhere, fromFile] = [rareWord(), rareWord(), rareWord(), rareWord()];
      const user = await registerInvitedUser(server);

      const admin = await loggedInOnDraw(journey, ADMIN, screen);
      const { page } = admin;
      await openWords(page, screen);
      // The demo list is there to start with (searched for: the desktop run's words may push it past the first page).
      const search = page.getByRole('searchbox', { name: '搜索敏感词' });
      await search.fill('血腥暴力');
      await search.press('Enter');
      // The whole first page stays on screen while the search runs, 血腥暴力 among it: wait for the one row found.
      await expect.poll(() => page.locator('.ant-table-row').count()).toBe(1);
      await visible(wordRow(page, '血腥暴力'));
      // Cleared and searched again until the whole list shows: on a loaded phone run the box once kept 血腥暴力.
      await expect
        .poll(async () => {
          const rows = await page.locator('.ant-table-row').count();
          if (rows <= 1) {
            await search.fill('');
            await search.press('Enter');
          }
          return rows;
        })
        .toBeGreaterThan(1);

      // 添加敏感词: a bad line is refused in the dialog with the contract's message; then one word, new category.
      await press(screen, page.getByRole('button', { name: '添加敏感词' }));
      const add = dialog(page, '添加敏感词');
      await visible(add);
      await add.getByLabel('敏感词').fill(`${added}\n${'长'.repeat(51)}`);
      await add.getByLabel('分类').fill(category);
      await press(screen, add.getByRole('button', { name: '添加', exact: true }));
      await visible(add.getByText('第 2 行：敏感词不能超过 50 个字'));
      await add.getByLabel('敏感词').fill(added);
      await press(screen, add.getByRole('button', { name: '添加', exact: true }));
      await seeToast(page, '添加成功：新增 1 个');
      await hidden(add);
      await visible(wordRow(page, added).filter({ hasText: category }));
      if (screen === 'phone') {
        // The whole row fits the screen, 删除 included.
        const remove = wordRow(page, added).getByRole('button', { name: '删除' });
        const box = await remove.boundingBox();
        expect(box && box.x + box.width).toBeLessThanOrEqual(390);
      }
      await screenshot(page, `${screen}-sensitive-words`);

      // The user's prompt with the word is refused with the server's message; the same prompt without it is not.
      const userSide = await loggedInOnDraw(journey, user, screen);
      await generateWith(userSide.page, screen, added);
      await visible(toast(userSide.page, REFUSAL));
      await screenshot(userSide.page, `${screen}-sensitive-word-refused`);
      expect((await predictAnswer(user, '城市夜景')).code).toBe(0);

      // 搜索 finds it; the category filter keeps only its category.
      await search.fill(added);
      await search.press('Enter');
      await expect.poll(() => page.locator('.ant-table-row').count()).toBe(1);
      await search.fill('');
      await search.press('Enter');
      await chooseOption(page, page.getByRole('combobox', { name: '按分类筛选' }), `${category}（1）`);
      await expect.poll(() => page.locator('.ant-table-row').count()).toBe(1);
      await visible(wordRow(page, added));

      // 导入: pasted lines (one naming its own category), a bad line refusing the whole text first.
      await press(screen, page.getByRole('button', { name: '导入' }));
      const importing = dialog(page, '导入敏感词');
      await visible(importing);
      const text = importing.getByLabel('导入内容');
      await text.fill(`${imported}\n暴力:${importedElsewhere}\n分类:有\u200b零宽`);
      await importing.getByLabel('默认分类').fill(category);
      // Its suggestions (the category exists now) cover the buttons until the field is left.
      await importing.getByLabel('默认分类').press('Tab');
      await press(screen, importing.getByRole('button', { name: '导入', exact: true }));
      await visible(importing.getByRole('alert').filter({ hasText: '第 3 行：敏感词不能包含控制字符或不可见字符' }));
      await hidden(toasts(page));
      await text.fill(`${imported}\n暴力:${importedElsewhere}\n${added}`);
      await press(screen, importing.getByRole('button', { name: '导入', exact: true }));
      await seeToast(page, '导入成功：新增 2 个，1 个已在词库中');
      await hidden(importing);
      await expect.poll(() => page.locator('.ant-table-row').count()).toBe(2);
      await visible(wordRow(page, imported));

      // 导入 from a file: read into the box to look over, then imported.
      await press(screen, page.getByRole('button', { name: '导入' }));
      await visible(importing);
      const chooser = await openFileChooser(page, screen, importing.getByRole('button', { name: '从文件读取' }));
      await chooser.setFiles({
        name: 'words.txt',
        mimeType: 'text/plain',
        buffer: Buffer.from(`\uFEFF${category}:${fromFile}\r\n`, 'utf8'),
      });
      await visible(importing.getByText('已读取文件「words.txt」，共 1 行'));
      expect(await text.inputValue()).toContain(`${category}:${fromFile}`);
      await press(screen, importing.getByRole('button', { name: '导入', exact: true }));
      await seeToast(page, '导入成功：新增 1 个');
      await visible(wordRow(page, fromFile));

      // 导出本分类: the category's words as `分类:词` lines.
      const [download] = await Promise.all([
        page.waitForEvent('download', { timeout: 30_000 }),
        press(screen, page.getByRole('button', { name: '导出本分类' })),
      ]);
      expect(download.suggestedFilename()).toMatch(/^sensitive-words-\d{4}-\d{2}-\d{2}\.txt$/);
      const exported = (await downloadedText(download)).split('\n').filter(Boolean).sort();
      expect(exported).toEqual([`${category}:${added}`, `${category}:${fromFile}`, `${category}:${imported}`].sort());

      // 删除 asks first; 取消 keeps the word, 删除 removes it, and the user's prompt goes through again.
      await press(screen, wordRow(page, added).getByRole('button', { name: '删除' }));
      const confirm = popconfirm(page, `删除敏感词「${added}」？`);
      await visible(confirm);
      await screenshot(page, `${screen}-sensitive-word-delete`);
      await confirmWith(confirm, '取消', (target) => press(screen, target));
      await visible(wordRow(page, added));
      await deleteWithConfirmation(page, screen, confirm, added);
      await hidden(wordRow(page, added));
      expect((await predictAnswer(user, added)).code).toBe(0);
      expect((await predictAnswer(user, imported)).msg).toBe(REFUSAL);
      if (screen === 'phone') expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0);

      await userSide.context.close();
      await admin.context.close();
    });
  }
});
