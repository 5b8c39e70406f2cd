import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import {
  ADMIN,
  loggedInOnDraw,
  newPage,
  registerInvitedUser,
  screenshot,
  setupJourney,
  templateIdByName,
} from './harness';
import { hidden, logInFromHome, loginDialog, toast, visible } from './ui';

// A server of its own: it features a template and expects the home page to list exactly that one.
const journey = setupJourney({ ownServer: true });

/** The names on the home page's 精选模板 cards, in order. */
async function featuredNames(page: Page): Promise<string[]> {
  const cards = page.getByRole('region', { name: '精选模板' }).getByRole('button', { name: /^使用模板 / });
  return (await cards.evaluateAll((nodes) => nodes.map((node) => node.getAttribute('aria-label') ?? ''))).map((label) =>
    label.replace('使用模板 ', ''),
  );
}

describe('精选模板', () => {
  it('shows only the templates an admin featured on the home page, each opening /draw', async () => {
    const { server, browser } = journey;
    const lineart = await templateIdByName(server, '线稿上色');

    // Nothing featured yet: the home page leaves the section out rather than filling it with other templates.
    const visitor = await newPage(browser);
    // The page arrives rendered with the featured list the server read: none, so no section, from the first paint.
    await visitor.page.goto(`${server.baseUrl}/`);
    const section = visitor.page.getByRole('region', { name: '精选模板' });
    await visible(visitor.page.getByRole('region', { name: '最新作品' }));
    await hidden(section);
    expect(await visitor.page.getByText('暂无描述').count()).toBe(0);

    // The admin turns on 设为精选 for 线稿上色 in the template editor.
    const admin = await loggedInOnDraw(journey, ADMIN);
    await admin.page.goto(`${server.baseUrl}/admin?node=${lineart}`);
    await visible(admin.page.getByText('模板：线稿上色'));
    const featured = admin.page.getByRole('switch', { name: '设为精选' });
    expect(await featured.isChecked()).toBe(false);
    await featured.click();
    await visible(toast(admin.page, '已设为精选'));
    await visible(admin.page.getByRole('spinbutton', { name: '精选排序' }));
    expect(await featured.isChecked()).toBe(true);
    await screenshot(admin.page, 'admin-featured-switch');
    await admin.context.close();

    await visitor.page.reload();
    await expect.poll(() => featuredNames(visitor.page)).toEqual(['线稿上色']);
    expect(await section.getByText('即将上线').count()).toBe(0);
    expect(await section.getByText('暂无描述').count()).toBe(0);
    // A visitor is asked to log in first.
    await section.getByRole('button', { name: '使用模板 线稿上色' }).click();
    await visible(loginDialog(visitor.page));
    await visitor.page.keyboard.press('Escape');
    await section.evaluate((element) => element.scrollIntoView({ block: 'start' }));
    await screenshot(visitor.page, 'home-featured');
    await visitor.context.close();

    // On a phone, a signed-in user opens /draw from the card with the template chosen.
    const user = await registerInvitedUser(server);
    const phone = await newPage(browser);
    await logInFromHome(phone.page, server.baseUrl, user.account, user.password);
    await phone.page.waitForURL('**/draw');
    await phone.page.setViewportSize({ width: 390, height: 844 });
    await phone.page.goto(`${server.baseUrl}/`);
    const card = phone.page.getByRole('button', { name: '使用模板 线稿上色' });
    await card.scrollIntoViewIfNeeded();
    await screenshot(phone.page, 'home-featured-phone');
    await card.click();
    await phone.page.waitForURL('**/draw');
    await visible(phone.page.getByText('模板：线稿上色'));
    await phone.context.close();
  });
});
