import { describe, expect, it } from 'vitest';
import {
  ADMIN,
  adminToken,
  api,
  generateAndWait,
  loggedInOnDraw,
  newPage,
  registerInvitedUser,
  screenshot,
  setupJourney,
} from './harness';
import { dialog, hidden, logInWhenAsked, loginDialog, press, sidewaysOverflow, toast, toasts, visible } from './ui';

/**
 * 灵感广场 as a community (docs/community.md): a guest is asked to log in to like; a reader likes, takes it back,
 * favourites, finds the work in 我的收藏 and reports it; the admin takes it down and the author reads why in 通知.
 */

// Its own server: the journeys like, favourite and take down works on the public gallery.
const journey = setupJourney({ ownServer: true });

async function noSidewaysScroll(page: Parameters<typeof sidewaysOverflow>[0]): Promise<void> {
  expect(await sidewaysOverflow(page)).toBe(0);
}

describe('点赞, 收藏, 我的收藏, 举报 and the author’s 通知', () => {
  for (const screen of ['desktop', 'phone'] as const) {
    it(`on the ${screen}`, async () => {
      const author = await registerInvitedUser(journey.server);
      const reader = await registerInvitedUser(journey.server);
      const [workId] = await generateAndWait(journey.server, author, {
        prompt: `orange cat on a roof ${screen}`,
        steps: 6,
        batchSize: 1,
      });
      const published = await api(journey.server, 'POST', '/api/works/publish', {
        token: author.token,
        body: { id: workId, public: true, hidePrompt: false },
      });
      expect(published.msg).toBe('已发布到灵感广场');

      // A guest is asked to log in; after logging in the like is done, on the same page.
      const fan = await registerInvitedUser(journey.server);
      const guest = await newPage(journey.browser, screen);
      await guest.page.goto(`${journey.server.baseUrl}/omnibus`);
      const guestCard = guest.page.locator('.hf-public-card').filter({ hasText: author.nickname });
      await visible(guestCard);
      await press(screen, guestCard.getByRole('button', { name: '点赞（0 个赞）' }));
      await visible(loginDialog(guest.page).getByText('登录或注册后会自动继续刚才的操作'));
      await noSidewaysScroll(guest.page);
      await logInWhenAsked(guest.page, fan.account, fan.password);
      await visible(guestCard.getByRole('button', { name: '取消点赞（1 个赞）', pressed: true }));
      expect(new URL(guest.page.url()).pathname).toBe('/omnibus');
      // The fan takes it back, so the reader below starts from no likes.
      await press(screen, guestCard.getByRole('button', { name: '取消点赞（1 个赞）' }));
      await visible(guestCard.getByRole('button', { name: '点赞（0 个赞）', pressed: false }));
      await guest.context.close();

      // The reader likes on the card, takes it back, likes again; the count follows.
      const { page, context } = await loggedInOnDraw(journey, reader, screen);
      await page.goto(`${journey.server.baseUrl}/omnibus`);
      const card = page.locator('.hf-public-card').filter({ hasText: author.nickname });
      await visible(card);
      await press(screen, card.getByRole('button', { name: '点赞（0 个赞）' }));
      await visible(card.getByRole('button', { name: '取消点赞（1 个赞）', pressed: true }));
      await press(screen, card.getByRole('button', { name: '取消点赞（1 个赞）' }));
      await visible(card.getByRole('button', { name: '点赞（0 个赞）', pressed: false }));
      await press(screen, card.getByRole('button', { name: '点赞（0 个赞）' }));
      await visible(card.getByRole('button', { name: '取消点赞（1 个赞）' }));
      await screenshot(page, `community-omnibus-${screen}`);
      await noSidewaysScroll(page);

      // 热门 lists it too, with the reader's like.
      await press(screen, page.getByRole('tab', { name: '热门' }));
      await visible(card.getByRole('button', { name: '取消点赞（1 个赞）' }));

      // The detail: the same like, 收藏 there.
      await press(screen, card.getByRole('button', { name: /^查看作品/ }));
      const detail = dialog(page, '作品详情');
      await visible(detail.getByRole('button', { name: '取消点赞（1 个赞）' }));
      await press(screen, detail.getByRole('button', { name: '收藏（0 人收藏）' }));
      await visible(detail.getByRole('button', { name: '取消收藏（1 人收藏）', pressed: true }));
      await screenshot(page, `community-detail-${screen}`);
      await noSidewaysScroll(page);

      // 举报 with a reason.
      await press(screen, detail.getByRole('button', { name: '举报' }));
      const report = dialog(page, '举报作品');
      await press(screen, report.getByRole('radio', { name: '色情低俗' }));
      await report.getByRole('textbox', { name: /补充说明/ }).fill('画面不适合公开展示');
      await screenshot(page, `community-report-${screen}`);
      await noSidewaysScroll(page);
      await press(screen, report.getByRole('button', { name: '提交举报' }));
      await visible(toast(page, '举报已提交，我们会尽快处理'));
      await hidden(report);
      await page.keyboard.press('Escape');
      await hidden(detail);

      // 我的收藏 in 我的作品.
      await page.goto(`${journey.server.baseUrl}/myGallery`);
      await press(screen, page.getByRole('tab', { name: '我的收藏' }));
      const favourite = page.locator('.hf-public-card').filter({ hasText: author.nickname });
      await visible(favourite.getByRole('button', { name: '取消收藏（1 人收藏）' }));
      await screenshot(page, `community-favorites-${screen}`);
      await noSidewaysScroll(page);
      await context.close();

      // The admin takes it down; the author reads why in 通知.
      const admin = await adminToken(journey.server);
      const decided = await api(journey.server, 'POST', '/api/admin/works/moderation/decide', {
        token: admin,
        body: { id: workId, decision: 'remove' },
      });
      expect(decided.msg).toBe('已下架');
      const shown = await api<{ list: { id: string }[] }>(journey.server, 'GET', '/api/works/public?pageSize=50');
      expect(shown.data.list.map((work) => work.id)).not.toContain(workId);

      const authorPage = await loggedInOnDraw(journey, author, screen);
      await authorPage.page.goto(`${journey.server.baseUrl}/myGallery`);
      await press(screen, authorPage.page.getByRole('button', { name: '通知（1 条未读）' }));
      const notices = authorPage.page.getByRole('dialog', { name: '通知' });
      const notice = notices.getByRole('listitem').filter({ hasText: '作品已被下架' });
      await visible(notice.getByText('未读'));
      await visible(notice.getByText(/原因：色情低俗/));
      await screenshot(authorPage.page, `community-notices-${screen}`);
      await noSidewaysScroll(authorPage.page);
      await authorPage.page.keyboard.press('Escape');
      await visible(authorPage.page.getByRole('button', { name: '通知', exact: true }));
      await authorPage.context.close();
    });
  }
});

interface TreeNode {
  id: string;
  name: string;
  kind: string;
  children?: TreeNode[];
}

describe('模板封面取自示例作品', () => {
  for (const screen of ['desktop', 'phone'] as const) {
    it(`on the ${screen}: the admin paints a sample and picks it as the cover`, async () => {
      const tree = (
        await api<TreeNode[]>(journey.server, 'GET', '/api/task/tree/all', {
          token: await adminToken(journey.server),
        })
      ).data;
      const template = tree
        .flatMap((node) => [node, ...(node.children ?? [])])
        .flatMap((node) => node.children ?? [])
        .find((node) => node.kind === 'template');
      if (!template) throw new Error('no template in the seeded tree');

      const { page, context } = await loggedInOnDraw(journey, ADMIN, screen);
      await page.goto(`${journey.server.baseUrl}/admin?node=${template.id}`);
      await visible(page.getByText(`模板：${template.name}`));
      await press(screen, page.getByRole('button', { name: '从作品选择' }));
      const picker = dialog(page, '选择作品作为封面');
      await visible(picker);
      const works = picker.getByRole('button', { name: /^选用这幅作品作为封面/ });
      const before = await works.count();
      await press(screen, picker.getByRole('button', { name: '生成示例' }));
      await visible(toast(page, '示例已生成，可在列表中选用'), 60_000);
      await expect.poll(() => works.count(), { timeout: 15_000 }).toBeGreaterThan(before);
      await visible(picker.getByRole('button', { name: '选用这幅作品作为封面（我的作品）' }));
      await screenshot(page, `community-cover-picker-${screen}`);
      await noSidewaysScroll(page);
      // One toast at a time: the pick's answer shows once the sample's is gone.
      await hidden(toasts(page));
      await press(screen, picker.getByRole('button', { name: '选用这幅作品作为封面（我的作品）' }).first());
      await visible(toast(page, '已选用为封面，保存模板后生效'));
      await hidden(picker);
      await visible(page.getByText('有未保存的修改'));
      await context.close();
    });
  }
});
