import { createHmac } from 'node:crypto';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiAnswer, api, invitedUserOnDraw, type ScreenName, screenshot, setupJourney } from './harness';
import {
  chooseUserMenuItem,
  confirmWith,
  dialog,
  hidden,
  pathname,
  popconfirm,
  press,
  sidewaysOverflow,
  toast,
  visible,
} from './ui';

// A server of its own that sends webhooks to the plain-HTTP receiver on 127.0.0.1 below (docs/api.md § Webhook;
// refused by default), and lets the journey page a log of a dozen 测试发送 within the minute (the per-user limit has
// its own server test).
const journey = setupJourney({
  ownServer: () => ({ WEBHOOK_ALLOW_HTTP: 'true', WEBHOOK_ALLOW_PRIVATE: 'true', RATE_LIMIT_WEBHOOK_TEST: '30' }),
});

type Received = { headers: IncomingHttpHeaders; body: string };

/** A webhook endpoint on 127.0.0.1 that records every request and answers 200, or 500 when told to fail. */
async function startReceiver() {
  const received: Received[] = [];
  let failures = 0;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      const status = failures > 0 ? 500 : 200;
      failures = Math.max(0, failures - 1);
      res.writeHead(status, { 'content-type': 'text/plain' }).end(status === 200 ? '收到' : '出错了');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    received,
    /** The next `count` requests are answered 500. */
    failNext(count: number) {
      failures = count;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

let receiver: Awaited<ReturnType<typeof startReceiver>>;
beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(async () => {
  await receiver?.close();
});

/** Standard Webhooks: v1, HMAC-SHA256 keyed with the base64 after whsec_, over "id.timestamp.body". */
function signatureMatches(request: Received, secret: string): boolean {
  const id = String(request.headers['webhook-id']);
  const timestamp = String(request.headers['webhook-timestamp']);
  const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
  const expected = createHmac('sha256', key).update(`${id}.${timestamp}.${request.body}`).digest('base64');
  return String(request.headers['webhook-signature']).split(' ').includes(`v1,${expected}`);
}

/** A program's call with a personal API key: the same bearer header as a login token (docs/api.md). */
function callWithKey(apiPath: string, key: string): Promise<ApiAnswer> {
  return api(journey.server, 'GET', apiPath, { token: key });
}

/** Waits for a toast and for it to leave: one toast shows at a time and others are dropped meanwhile. */
async function seeToast(page: Page, text: string) {
  await visible(toast(page, text));
  await hidden(toast(page, text), 10_000);
}

/** Confirms the open Popconfirm titled `title` with `button`. */
async function confirmPopup(page: Page, screen: ScreenName, title: string, button: string): Promise<void> {
  const popup = popconfirm(page, title);
  await confirmWith(popup, button, (target) => press(screen, target));
}

const SCREENS: ScreenName[] = ['desktop', 'phone'];

describe('开放接口: personal API keys and webhooks', () => {
  for (const screen of SCREENS) {
    it(`creates a key shown once, uses it, revokes it, and tests a webhook on ${screen}`, async () => {
      const { server } = journey;
      const { user, context, page } = await invitedUserOnDraw(journey, screen);
      await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.baseUrl });

      // From the user menu to the API 密钥 tab, empty at first.
      await chooseUserMenuItem(page, '开放接口');
      await page.waitForURL('**/account/api-keys');
      await visible(page.getByRole('heading', { name: '开放接口' }));
      await visible(page.getByText('还没有 API 密钥'));
      await expect.poll(() => page.title()).toBe('API 密钥 - 画坊');

      // 创建密钥 opens with the name focused; it is required (the contracts' message); Enter creates the key.
      await press(screen, page.getByRole('button', { name: '创建密钥' }));
      const create = dialog(page, '创建密钥');
      await visible(create);
      const nameField = create.getByLabel('密钥名称');
      await expect.poll(() => nameField.evaluate((field) => field === document.activeElement)).toBe(true);
      await nameField.press('Enter');
      await visible(create.getByText('请填写密钥名称'));
      await expect.poll(() => create.getByRole('checkbox', { name: /生成图片/ }).isChecked()).toBe(true);
      await press(screen, create.getByRole('checkbox', { name: /读取作品/ }));
      const keyName = `出图脚本${screen === 'phone' ? '手机' : '桌面'}`;
      await nameField.fill(keyName);
      await nameField.press('Enter');

      // The whole key, once, with a warning and 复制.
      const created = dialog(page, '密钥已创建');
      await visible(created);
      await visible(created.getByText('只显示这一次'));
      const key = await created.getByLabel('API 密钥').inputValue();
      expect(key).toMatch(/^hf_[A-Za-z0-9_-]{43}$/);
      await press(screen, created.getByRole('button', { name: '复制' }));
      await visible(created.getByRole('button', { name: '已复制' }));
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(key);
      await screenshot(page, `open-api-${screen}-key-created`);
      await press(screen, created.getByRole('button', { name: '我已保存，关闭' }));
      await hidden(created);

      // The list names it by its prefix only; the key itself is nowhere on the page any more.
      const keys = page.getByRole('list', { name: 'API 密钥列表' });
      const item = keys.getByRole('listitem').filter({ hasText: keyName });
      await visible(item);
      await visible(item.getByText(`${key.slice(0, 11)}…`, { exact: true }));
      await visible(item.getByText('生成图片'));
      await visible(item.getByText('读取作品'));
      await visible(item.getByText('从未使用'));
      expect(await page.content()).not.toContain(key);

      // The key works for its scopes and nowhere else.
      const works = await callWithKey('/api/works/profile?current=1&pageSize=10', key);
      expect(works).toMatchObject({ status: 200, code: 0 });
      const keyList = await callWithKey('/api/user/apiKeys', key);
      expect(keyList).toMatchObject({ status: 403, msg: '该 API 密钥无权访问此接口' });
      // 最近使用 is written beside the request; once stored, a fresh visit shows it.
      await expect
        .poll(async () => {
          const listed = await api<{ lastUsedAt: string | null }[]>(server, 'GET', '/api/user/apiKeys', {
            token: user.token,
          });
          return listed.data[0]?.lastUsedAt ?? null;
        })
        .not.toBeNull();
      await page.reload();
      await visible(item.getByText(/^最近使用 /));
      expect(await sidewaysOverflow(page)).toBe(0);
      await screenshot(page, `open-api-${screen}-keys`);

      // 撤销, confirmed: the key leaves the list and stops working at once.
      await press(screen, item.getByRole('button', { name: '撤销' }));
      await confirmPopup(page, screen, `撤销密钥「${keyName}」？`, '撤销');
      await seeToast(page, `密钥「${keyName}」已撤销`);
      await visible(page.getByText('还没有 API 密钥'));
      const revoked = await callWithKey('/api/works/profile?current=1&pageSize=10', key);
      expect(revoked).toMatchObject({ status: 401, code: 401, msg: 'API 密钥无效或已删除' });

      // Webhook: its own tab and address.
      await press(screen, page.getByRole('tab', { name: 'Webhook' }));
      await page.waitForURL('**/account/webhooks');
      await visible(page.getByText('还没有接收地址'));

      await press(screen, page.getByRole('button', { name: '添加接收地址' }));
      const add = dialog(page, '添加接收地址');
      await visible(add);
      await add.getByLabel('接收地址').fill('ftp://例子');
      await press(screen, add.getByRole('button', { name: '添加', exact: true }));
      await visible(add.getByText('接收地址须以 https:// 开头'));
      await add.getByLabel('接收地址').fill(receiver.url);
      await add.getByLabel('备注（选填）').fill('内部通知');
      // All three events start checked; this endpoint does not want 作品发布.
      await press(screen, add.getByRole('checkbox', { name: /作品发布/ }));
      await press(screen, add.getByRole('button', { name: '添加', exact: true }));

      const added = dialog(page, '接收地址已添加');
      await visible(added);
      await visible(added.getByText('只显示这一次'));
      const secret = await added.getByLabel('签名密钥').inputValue();
      expect(secret).toMatch(/^whsec_/);
      await press(screen, added.getByRole('button', { name: '我已保存，关闭' }));
      await hidden(added);

      const endpoints = page.getByRole('list', { name: '接收地址列表' });
      const endpoint = endpoints.getByRole('listitem').filter({ hasText: receiver.url });
      await visible(endpoint);
      await visible(endpoint.getByText('内部通知'));
      await visible(endpoint.getByText('生成成功'));
      await visible(endpoint.getByText('生成失败'));
      expect(await endpoint.getByText('作品发布').count()).toBe(0);

      // 测试发送: the result on the card, a signed webhook.test at the receiver, and a row in 投递记录.
      const before = receiver.received.length;
      await press(screen, endpoint.getByRole('button', { name: '测试发送' }));
      await visible(endpoint.getByText('测试发送成功'));
      await visible(endpoint.getByText(/应答 HTTP 200/));
      const request = receiver.received[before];
      expect(request).toBeDefined();
      expect(JSON.parse(request?.body ?? '{}')).toMatchObject({ type: 'webhook.test', userId: expect.any(String) });
      expect(signatureMatches(request as Received, secret)).toBe(true);
      expect(await sidewaysOverflow(page)).toBe(0);
      await screenshot(page, `open-api-${screen}-webhooks`);

      await press(screen, endpoint.getByRole('button', { name: '投递记录' }));
      const drawer = page.locator('.ant-drawer').filter({ hasText: '投递记录' });
      await visible(drawer);
      const row = drawer.locator('.ant-table-row').first();
      await visible(row.getByText('测试发送'));
      await visible(row.getByText('成功'));
      await expect.poll(() => row.locator('td').nth(3).textContent()).toBe('1');
      await press(screen, row.getByRole('button', { name: '展开行' }));
      await visible(drawer.getByText(/第 1 次 .* 应答 HTTP 200/));
      expect(await sidewaysOverflow(page)).toBe(0);
      await screenshot(page, `open-api-${screen}-deliveries`);

      // More sends than a page holds: the log pages, newest first.
      const listed = await api<{ id: string }[]>(server, 'GET', '/api/user/webhooks', { token: user.token });
      const endpointId = listed.data[0]?.id;
      for (let i = 0; i < 10; i++) {
        const sent = await api(server, 'POST', `/api/user/webhooks/${endpointId}/test`, { token: user.token });
        expect(sent.code).toBe(0);
      }
      await press(screen, drawer.getByRole('button', { name: '刷新' }));
      await visible(drawer.getByText('共 11 条'));
      await press(screen, drawer.getByTitle('2', { exact: true }));
      await expect.poll(() => drawer.locator('.ant-table-row').count()).toBe(1);
      await press(screen, drawer.getByRole('button', { name: '关闭', exact: true }));
      await hidden(drawer.locator('.ant-drawer-content'));

      // A failed 测试发送 says how the endpoint answered.
      receiver.failNext(1);
      await press(screen, endpoint.getByRole('button', { name: '测试发送' }));
      await visible(endpoint.getByText('测试发送失败：接收地址应答 HTTP 500'));

      // 停用 and 启用 again, stored at once.
      const enabledNow = async () =>
        (await api<{ enabled: boolean }[]>(server, 'GET', '/api/user/webhooks', { token: user.token })).data[0]
          ?.enabled;
      const toggle = endpoint.getByRole('switch', { name: '启用接收地址' });
      await press(screen, toggle);
      await visible(endpoint.locator('.ant-tag', { hasText: '已停用' }));
      await expect.poll(enabledNow).toBe(false);
      await seeToast(page, '已停用，不再向它发送事件');
      await press(screen, toggle);
      await hidden(endpoint.locator('.ant-tag', { hasText: '已停用' }));
      await expect.poll(enabledNow).toBe(true);
      // Gone before 修改成功 below: one toast at a time.
      await seeToast(page, '已启用');

      // 编辑: the fields come back filled; Enter saves.
      await press(screen, endpoint.getByRole('button', { name: '编辑' }));
      const edit = dialog(page, '编辑接收地址');
      await visible(edit);
      expect(await edit.getByLabel('接收地址').inputValue()).toBe(receiver.url);
      expect(await edit.getByRole('checkbox', { name: /作品发布/ }).isChecked()).toBe(false);
      const description = edit.getByLabel('备注（选填）');
      await description.fill('审核系统');
      await description.press('Enter');
      await hidden(edit);
      await seeToast(page, '修改成功');
      await visible(endpoint.getByText('审核系统'));

      // 重置密钥, confirmed: the new secret shows once and signs the next send; the old one no longer matches.
      await press(screen, endpoint.getByRole('button', { name: '重置密钥' }));
      await confirmPopup(page, screen, '重置签名密钥？', '重置');
      const rotated = dialog(page, '签名密钥已重置');
      await visible(rotated);
      await visible(rotated.getByText('旧密钥已经失效'));
      const newSecret = await rotated.getByLabel('签名密钥').inputValue();
      expect(newSecret).toMatch(/^whsec_/);
      expect(newSecret).not.toBe(secret);
      expect(await sidewaysOverflow(page)).toBe(0);
      await screenshot(page, `open-api-${screen}-secret-reset`);
      await press(screen, rotated.getByRole('button', { name: '我已保存，关闭' }));
      await hidden(rotated);
      const beforeRotatedTest = receiver.received.length;
      await press(screen, endpoint.getByRole('button', { name: '测试发送' }));
      await visible(endpoint.getByText('测试发送成功'));
      const signedAfter = receiver.received[beforeRotatedTest] as Received;
      expect(signatureMatches(signedAfter, newSecret)).toBe(true);
      expect(signatureMatches(signedAfter, secret)).toBe(false);

      // 删除, confirmed.
      await press(screen, endpoint.getByRole('button', { name: '删除' }));
      await confirmPopup(page, screen, '删除这个接收地址？', '删除');
      await visible(page.getByText('还没有接收地址'));
      expect(pathname(page)).toBe('/account/webhooks');
      await context.close();
    });
  }
});
