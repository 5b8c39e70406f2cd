import type { AuditEntry } from '@huafang/contracts';
import { describe, expect, it } from 'vitest';
import { actionColor, actionLabel, auditDetailRows, auditSummary, roleLabel, targetText } from './audit-detail';

function entry(patch: Partial<AuditEntry>): AuditEntry {
  return {
    id: 'e1',
    at: '2026-03-01T08:00:00.000Z',
    action: 'auth.login',
    userId: 'u1',
    actorName: null,
    mobile: '138****8000',
    role: 'user',
    apiKeyId: null,
    ip: '127.0.0.1',
    targetType: null,
    targetId: null,
    targetName: null,
    detail: {},
    ...patch,
  };
}

describe('auditDetailRows', () => {
  it('names a login in words', () => {
    const login = entry({
      action: 'auth.login_failed',
      detail: { method: 'password', account: 'e2eabc', reason: '密码错误' },
    });
    expect(auditDetailRows(login)).toEqual([
      { key: 'method', label: '登录方式', value: '账号密码', block: false },
      { key: 'account', label: '账号', value: 'e2eabc', block: false },
      { key: 'reason', label: '失败原因', value: '密码错误', block: false },
    ]);
  });

  it('writes credit changes with a sign and units', () => {
    const change = entry({
      action: 'credits.change',
      detail: { delta: -4, balance: 96, reason: 'charge', ref: { jobId: 'j1' } },
    });
    expect(auditDetailRows(change)).toEqual([
      { key: 'delta', label: '变动', value: '-4 点', block: false },
      { key: 'balance', label: '变动后余额', value: '96 点', block: false },
      { key: 'reason', label: '原因', value: '生成消耗', block: false },
      { key: 'ref', label: '关联', value: '{\n  "jobId": "j1"\n}', block: true },
    ]);
  });

  it('shows an admin request with its method, route, error and body, leaving empty parts out', () => {
    const request = entry({
      action: 'admin.request',
      role: 'admin',
      detail: {
        method: 'POST',
        route: '/api/admin/sensitive-words',
        status: 200,
        error: { code: -1, msg: '请填写敏感词' },
        params: {},
        query: null,
        body: { words: ['虐杀'], category: '暴力' },
      },
    });
    expect(auditDetailRows(request).map((row) => [row.label, row.value])).toEqual([
      ['请求方法', 'POST'],
      ['接口', '/api/admin/sensitive-words'],
      ['应答状态', '200'],
      ['错误', '请填写敏感词（-1）'],
      ['请求内容', '{\n  "words": [\n    "虐杀"\n  ],\n  "category": "暴力"\n}'],
    ]);
  });

  it('lists the outputs of a generation a line each, and says 是 / 否 for flags', () => {
    const done = entry({
      action: 'generation.succeeded',
      detail: {
        mode: 'txt2img',
        engine: 'builtin',
        imageCount: 2,
        outputs: [
          { produceId: 'w1', sha256: 'aa' },
          { produceId: 'w2', sha256: 'bb' },
        ],
      },
    });
    expect(auditDetailRows(done).map((row) => [row.label, row.value, row.block])).toEqual([
      ['生成方式', '文生图', false],
      ['推理引擎', '内置演示引擎', false],
      ['生成数量', '2 张', false],
      ['生成的图片', 'w1  aa\nw2  bb', true],
    ]);
    const published = entry({ action: 'work.publish', detail: { wasPublic: false, hidePrompt: true } });
    expect(auditDetailRows(published).map((row) => row.value)).toEqual(['否', '是']);
  });

  it('keeps a field it does not know under its own name', () => {
    expect(auditDetailRows(entry({ detail: { extra: 'x' } }))).toEqual([
      { key: 'extra', label: 'extra', value: 'x', block: false },
    ]);
  });
});

describe('auditSummary', () => {
  it('gives the line an admin scans for, per kind of action', () => {
    expect(auditSummary(entry({ detail: { method: 'password', account: 'e2eabc' } }))).toBe('账号密码，账号 e2eabc');
    expect(auditSummary(entry({ action: 'generation.submit', detail: { prompt: 'city, night' } }))).toBe('city, night');
    expect(
      auditSummary(entry({ action: 'credits.change', detail: { delta: 10, balance: 110, reason: 'grant' } })),
    ).toBe('管理员调整 +10 点，余额 110 点');
    expect(
      auditSummary(
        entry({
          action: 'admin.request',
          detail: { method: 'DELETE', route: '/api/admin/sensitive-words', status: 200 },
        }),
      ),
    ).toBe('DELETE /api/admin/sensitive-words → 200');
    expect(auditSummary(entry({ action: 'admin.audit_export', detail: { rows: 12 } }))).toBe('导出 12 条');
  });

  it('cuts a long prompt', () => {
    const summary = auditSummary(entry({ action: 'generation.submit', detail: { prompt: 'a'.repeat(100) } }));
    expect(summary).toBe(`${'a'.repeat(60)}…`);
  });
});

describe('labels', () => {
  it('names the action, role and target in Chinese', () => {
    const work = entry({ action: 'work.delete', role: 'admin', targetType: 'work', targetId: 'w1' });
    expect(actionLabel(work)).toBe('删除作品');
    expect(roleLabel(work)).toBe('管理员');
    expect(targetText(work)).toBe('作品 w1');
    expect(targetText(entry({}))).toBeNull();
  });

  it('marks failures red', () => {
    expect(actionColor(entry({ action: 'auth.login_failed' }))).toBe('error');
    expect(actionColor(entry({ action: 'generation.failed' }))).toBe('error');
    expect(actionColor(entry({ action: 'auth.login' }))).toBe('blue');
  });
});
