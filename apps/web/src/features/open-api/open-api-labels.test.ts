import { API_KEY_SCOPES, WEBHOOK_EVENT_TYPES } from '@huafang/contracts';
import { describe, expect, it } from 'vitest';
import { attemptSummary, EVENT_LABELS, eventLabel, maskedKey, SCOPE_LABELS } from './open-api-labels';

describe('open API labels', () => {
  it('names every scope and event of the contracts in Chinese', () => {
    expect(Object.keys(SCOPE_LABELS).sort()).toEqual([...API_KEY_SCOPES].sort());
    expect(Object.keys(EVENT_LABELS).sort()).toEqual([...WEBHOOK_EVENT_TYPES].sort());
    for (const { label } of [...Object.values(SCOPE_LABELS), ...Object.values(EVENT_LABELS)]) {
      expect(label).toMatch(/^[\u4e00-\u9fa5]+$/);
    }
  });

  it('names the test event and keeps an unknown event as sent', () => {
    expect(eventLabel('webhook.test')).toBe('测试发送');
    expect(eventLabel('generation.failed')).toBe('生成失败');
    expect(eventLabel('work.deleted')).toBe('work.deleted');
  });

  it('shows a key as its prefix and an ellipsis', () => {
    expect(maskedKey('hf_abcdefgh')).toBe('hf_abcdefgh…');
  });

  it('says how an attempt went', () => {
    expect(attemptSummary({ statusCode: 200, error: null, durationMs: 12 })).toBe('应答 HTTP 200（12 毫秒）');
    expect(attemptSummary({ statusCode: 500, error: '接收地址应答 HTTP 500', durationMs: 30 })).toBe(
      '接收地址应答 HTTP 500（30 毫秒）',
    );
    expect(attemptSummary({ statusCode: null, error: '连接超时', durationMs: 10000 })).toBe('连接超时（10000 毫秒）');
    expect(attemptSummary({ statusCode: null, error: null, durationMs: 0 })).toBe('没有应答（0 毫秒）');
  });
});
