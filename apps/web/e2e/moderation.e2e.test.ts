import type { Locator } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startTencentModerationDouble,
  type TencentModerationDouble,
} from '../../server/test/doubles/tencent-moderation-double';
import {
  ADMIN,
  api,
  generateAndWait,
  loggedInOnDraw,
  type RegisteredUser,
  registerInvitedUser,
  screenshot,
  setupJourney,
} from './harness';
import { dialog, hidden, press, toast, toasts, visible } from './ui';

/**
 * 内容审核 as users and an admin see it, with the server's moderation provider pointed at the Tencent double:
 * a flagged publication is held (审核中), a reader reports a public work (举报), and the admin decides both in
 * 作品审核 › 待审核 and finds the decisions in 审核记录.
 */

let double: TencentModerationDouble;
beforeAll(async () => {
  double = await startTencentModerationDouble({ secretId: 'AKIDHuafangE2E', secretKey: 'e2e-moderation-secret' });
});
afterAll(async () => {
  await double?.close();
});

// A server of its own, pointed at the double (its moderation provider is the whole server's).
const journey = setupJourney({
  ownServer: () => ({
    MODERATION_PROVIDER: 'tencent',
    MODERATION_ACCESS_KEY_ID: double.account.secretId,
    MODERATION_ACCESS_KEY_SECRET: double.account.secretKey,
    MODERATION_ENDPOINT: double.url,
    MODERATION_TIMEOUT_SECONDS: '3',
  }),
});

/** Two small free creations through the API, as /chuangyi makes them; answers their ids, newest first. */
function makeTwoWorks(user: RegisteredUser, prompt: string): Promise<string[]> {
  return generateAndWait(journey.server, user, { prompt, steps: 6, batchSize: 2 });
}

/** The picture arrived and decoded: a broken link (403) leaves it complete with no width. */
async function thumbnailLoads(img: Locator): Promise<void> {
  await visible(img);
  await expect
    .poll(() =>
      img.evaluate(
        (element) => (element as HTMLImageElement).complete && (element as HTMLImageElement).naturalWidth > 0,
      ),
    )
    .toBe(true);
}

async function publicIds(): Promise<string[]> {
  const list = await api<{ list: { id: string }[] }>(journey.server, 'GET', '/api/works/public?pageSize=50');
  return list.data.list.map((work) => work.id);
}

describe('内容审核: held publication, 举报 and 作品审核 › 待审核', () => {
  for (const screen of ['desktop', 'phone'] as const) {
    it(`on the ${screen}: the author is told, a reader reports, the admin decides and finds the history`, async () => {
      const author = await registerInvitedUser(journey.server);
      const reader = await registerInvitedUser(journey.server);
      const [flagged, reported] = await makeTwoWorks(author, `harbor at dusk ${screen}`);
      // The one the reader will report goes out clean.
      const clean = await api(journey.server, 'POST', '/api/works/publish', {
        token: author.token,
        body: { id: reported, public: true, hidePrompt: false },
      });
      expect(clean.msg).toBe('已发布到灵感广场');

      // The author publishes the other one; the provider flags its image.
      double.answerNext('ImageModeration', { Suggestion: 'Block', Label: 'Porn', SubLabel: 'SexBehavior' });
      const authorPage = await loggedInOnDraw(journey, author, screen);
      await authorPage.page.goto(`${journey.server.baseUrl}/myGallery`);
      const tiles = authorPage.page.locator('.hf-gallery-tile');
      await visible(tiles.nth(1));
      const flaggedTile = tiles.filter({ hasNotText: '已发布' }).first();
      await press(screen, flaggedTile.getByRole('button').first());
      const detail = dialog(authorPage.page, '作品详情');
      await press(screen, detail.getByRole('button', { name: '发布到广场' }));
      await visible(toast(authorPage.page, '作品未通过内容审核（色情），暂不能发布到灵感广场，已提交管理员复核'));
      await visible(detail.getByText('审核中，通过后自动发布'));
      expect(await detail.getByRole('button', { name: '发布到广场' }).isDisabled()).toBe(true);
      await screenshot(authorPage.page, `moderation-held-${screen}`);
      await authorPage.context.close();
      expect(await publicIds()).not.toContain(flagged);

      // A reader reports the public one from 灵感广场, once.
      const readerPage = await loggedInOnDraw(journey, reader, screen);
      await readerPage.page.goto(`${journey.server.baseUrl}/omnibus`);
      const card = readerPage.page.locator('.hf-public-card').filter({ hasText: author.nickname });
      await visible(card);
      await press(screen, card.getByRole('button', { name: /^查看作品/ }));
      const publicDetail = dialog(readerPage.page, '作品详情');
      await press(screen, publicDetail.getByRole('button', { name: '举报' }));
      const reportDialog = dialog(readerPage.page, '举报作品');
      await visible(reportDialog);
      await press(screen, reportDialog.getByRole('radio', { name: '其他' }));
      await press(screen, reportDialog.getByRole('button', { name: '提交举报' }));
      await visible(reportDialog.getByText('选择“其他”时请说明举报原因'));
      await press(screen, reportDialog.getByRole('radio', { name: '色情低俗' }));
      await reportDialog.getByRole('textbox', { name: /补充说明/ }).fill('画面不适合公开展示');
      await screenshot(readerPage.page, `moderation-report-${screen}`);
      await press(screen, reportDialog.getByRole('button', { name: '提交举报' }));
      await visible(toast(readerPage.page, '举报已提交，我们会尽快处理'));
      await hidden(reportDialog);
      await hidden(toasts(readerPage.page));
      await press(screen, publicDetail.getByRole('button', { name: '举报' }));
      await press(screen, reportDialog.getByRole('radio', { name: '垃圾广告' }));
      await press(screen, reportDialog.getByRole('button', { name: '提交举报' }));
      await visible(toast(readerPage.page, '你已经举报过这个作品，我们会尽快处理'));
      await readerPage.context.close();

      // The admin finds both in 待审核, with their reasons, and decides.
      const adminPage = await loggedInOnDraw(journey, ADMIN, screen);
      const { page } = adminPage;
      await page.goto(`${journey.server.baseUrl}/admin/review`);
      await visible(page.getByRole('heading', { name: '作品审核' }));
      await press(screen, page.getByRole('tab', { name: /待审核/ }));
      // The tab counts what waits: at least these two (the other screen's journey leaves none behind).
      await visible(page.getByRole('tab', { name: /待审核/ }).getByText('2'));
      // The open tab's panel: the others stay in the page, hidden.
      const panel = page.getByRole('tabpanel');
      const row = (text: string) => panel.locator('.ant-table-row').filter({ hasText: text });
      const flaggedRow = row('图片审核：色情').filter({ hasText: author.nickname });
      const reportedRow = row('用户举报：色情低俗').filter({ hasText: author.nickname });
      await visible(flaggedRow);
      await visible(flaggedRow.getByText('等待发布'));
      await visible(reportedRow.getByText('画面不适合公开展示'));
      await visible(reportedRow.getByText(reader.nickname));
      await screenshot(page, `moderation-queue-${screen}`);

      await press(screen, flaggedRow.getByRole('button', { name: '通过' }));
      const approve = dialog(page, '通过这个作品？');
      await visible(approve.getByText('通过后将立即发布到灵感广场'));
      await approve.getByRole('textbox', { name: '备注（选填）' }).fill('人工复核不违规');
      await press(screen, approve.getByRole('button', { name: '通过', exact: true }));
      await visible(toast(page, '已通过，作品已发布到灵感广场'));
      await hidden(flaggedRow);
      await hidden(toasts(page));

      await press(screen, reportedRow.getByRole('button', { name: '下架' }));
      const remove = dialog(page, '下架这个作品？');
      await press(screen, remove.getByRole('button', { name: '下架', exact: true }));
      await visible(toast(page, '已下架'));
      await hidden(reportedRow);

      const shown = await publicIds();
      expect(shown).toContain(flagged);
      expect(shown).not.toContain(reported);

      // 审核记录: both decisions, newest first, with the admin.
      await press(screen, page.getByRole('tab', { name: '审核记录' }));
      const history = panel.locator('.ant-table-row').filter({ hasText: author.nickname });
      await visible(history.filter({ hasText: '下架' }).filter({ hasText: '用户举报：色情低俗' }));
      await visible(history.filter({ hasText: '人工复核不违规' }).filter({ hasText: '图片审核：色情' }));
      const firstRow = panel.locator('.ant-table-row').first();
      await visible(firstRow.getByText('下架'));
      await screenshot(page, `moderation-history-${screen}`);

      // The work taken down is hidden from everyone but its author and the admins: its thumbnail still loads here,
      // in 审核记录 and among 已发布作品 as 已隐藏.
      await thumbnailLoads(history.filter({ hasText: '下架' }).first().getByRole('img', { name: '作品' }));
      await press(screen, page.getByRole('tab', { name: '已发布作品' }));
      const hiddenRow = panel
        .locator('.ant-table-row')
        .filter({ hasText: author.nickname })
        .filter({ hasText: '已隐藏' });
      await thumbnailLoads(hiddenRow.first().getByRole('img', { name: '作品' }));
      await screenshot(page, `moderation-published-${screen}`);
      await adminPage.context.close();
    });
  }
});
