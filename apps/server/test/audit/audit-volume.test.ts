import { AUDIT_EXPORT_MAX } from '@huafang/contracts';
import { sql } from 'kysely';
import { expect, it } from 'vitest';
import { describeServer } from '../helpers/suite.js';
import { useTestApp } from '../helpers/use-test-app.js';
import { auditPage, flushAudit } from './audit-helpers.js';

const DAY_MS = 86_400_000;

describeServer('audit: exports and prunes of many entries', () => {
  const ctx = useTestApp({ admin: true });
  /** A month ago: inside the retention, so the daily prune leaves these entries to the tests. */
  const monthAgo = new Date(Date.now() - 30 * DAY_MS).toISOString();

  /** `count` entries of one address, all at the same instant, made by one statement on SQLite and PostgreSQL alike. */
  const insertMany = (count: number, ip: string) =>
    sql`
      WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${count})
      INSERT INTO audit_log (id, at, actor_role, ip, action, target_type, target_id, detail)
      SELECT ${`${ip}-`} || i, ${monthAgo}, 'system', ${ip}, 'work.publish', 'work', ${'w'} || i, '{}' FROM n
    `.execute(ctx.app.db);
  const exportCsv = async (query: string) => {
    await flushAudit(ctx.app);
    return ctx.app.app.inject({
      method: 'GET',
      url: `/api/admin/audit-log/export?${query}`,
      headers: { authorization: `Bearer ${ctx.admin}` },
    });
  };

  it('streams an export of several chunks with every entry once, even when all share one instant', async () => {
    await insertMany(2500, '10.80.0.1');
    const res = await exportCsv('ip=10.80.0.1');
    const lines = res.rawPayload.toString('utf8').split('\r\n').slice(1, -1);
    expect(lines).toHaveLength(2500);
    const targets = lines.map((line) => line.split(',')[9]);
    expect(new Set(targets).size).toBe(2500);
    expect(targets).toContain('w1');
    expect(targets).toContain('w2500');
  });

  it(`refuses an export of more than ${AUDIT_EXPORT_MAX} entries and asks for a narrower filter`, async () => {
    await insertMany(AUDIT_EXPORT_MAX + 1, '10.80.0.2');
    expect((await auditPage(ctx.app, ctx.admin, { ip: '10.80.0.2', pageSize: 1 })).total).toBe(AUDIT_EXPORT_MAX + 1);
    const res = await exportCsv('ip=10.80.0.2');
    expect(res.json()).toEqual({
      code: -1,
      msg: `符合条件的记录有 ${AUDIT_EXPORT_MAX + 1} 条，一次最多导出 ${AUDIT_EXPORT_MAX} 条，请缩小日期范围或增加筛选条件`,
      data: null,
    });
    // A refused export took nothing out, so it is not in the trail as an export.
    expect(
      (await auditPage(ctx.app, ctx.admin, { action: 'admin.audit_export' })).list.map((e) => e.detail.filter),
    ).toEqual([{ ip: '10.80.0.1', tzOffset: 0 }]);
  });

  it('prunes a large backlog in batches and keeps what is younger than the retention', async () => {
    const young = (await auditPage(ctx.app, ctx.admin, { dateFrom: new Date().toISOString().slice(0, 10) })).total;
    expect(young).toBeGreaterThan(0);
    // 160 days from now the entries of a month ago are 190 days old: past the 180 days.
    expect(await ctx.app.services.audit.prune(Date.now() + 160 * DAY_MS)).toBe(AUDIT_EXPORT_MAX + 1 + 2500);
    expect((await auditPage(ctx.app, ctx.admin, {})).total).toBe(young);
  });
});
