import { AUDIT_ACTIONS, AUDIT_CATEGORIES } from '@huafang/contracts';
import { describe, expect, it } from 'vitest';
import dayjs from '../../../common/dayjs';
import { auditFilterOf, isFiltered, KIND_OPTIONS } from './audit-filter';

describe('KIND_OPTIONS', () => {
  it('offers every category as a whole and every action once, under its category', () => {
    const values = KIND_OPTIONS.flatMap((group) => group.options.map((option) => option.value));
    expect(values.filter((value) => !value.includes('.')).sort()).toEqual([...AUDIT_CATEGORIES].sort());
    expect(values.filter((value) => value.includes('.')).sort()).toEqual([...AUDIT_ACTIONS].sort());
    const auth = KIND_OPTIONS.find((group) => group.label === '登录与注册');
    expect(auth?.options.map((option) => option.label)).toEqual(['全部登录与注册', '登录成功', '登录失败', '注册账号']);
  });
});

describe('auditFilterOf', () => {
  it('sends only the time-zone offset for an empty form', () => {
    expect(auditFilterOf({}, -480)).toEqual({ tzOffset: -480 });
    expect(auditFilterOf({ userId: '  ', mobile: '', days: null, kind: undefined }, 0)).toEqual({ tzOffset: 0 });
  });

  it('turns the days into YYYY-MM-DD and trims the texts', () => {
    expect(
      auditFilterOf(
        {
          days: [dayjs('2026-03-01T10:00:00'), dayjs('2026-03-05T23:00:00')],
          userId: ' u1 ',
          mobile: ' 13800138000 ',
          ip: '10.0.0.1 ',
          apiKeyId: ' k1',
        },
        -480,
      ),
    ).toEqual({
      tzOffset: -480,
      dateFrom: '2026-03-01',
      dateTo: '2026-03-05',
      userId: 'u1',
      mobile: '13800138000',
      ip: '10.0.0.1',
      apiKeyId: 'k1',
    });
  });

  it('keeps an open end of the date range open', () => {
    expect(auditFilterOf({ days: [dayjs('2026-03-01'), null] }, 0)).toEqual({ tzOffset: 0, dateFrom: '2026-03-01' });
  });

  it('sends a chosen action as action and a whole category as category', () => {
    expect(auditFilterOf({ kind: 'auth.login' }, 0)).toEqual({ tzOffset: 0, action: 'auth.login' });
    expect(auditFilterOf({ kind: 'generation' }, 0)).toEqual({ tzOffset: 0, category: 'generation' });
    expect(auditFilterOf({ kind: 'nonsense' }, 0)).toEqual({ tzOffset: 0 });
  });
});

describe('isFiltered', () => {
  it('ignores the time-zone offset', () => {
    expect(isFiltered({ tzOffset: -480 })).toBe(false);
    expect(isFiltered({ tzOffset: 0, category: 'auth' })).toBe(true);
  });
});
