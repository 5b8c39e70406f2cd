import { describe, expect, it } from 'vitest';
import { inDisplayZone } from '../../common/dayjs';
import { dayLabel, groupWorksByDay } from './work-days';

// Instants written in Beijing time (+08:00): the grouping follows Beijing days whatever the machine's zone.
const at = (iso: string) => ({ createdAt: new Date(`${iso}+08:00`).toISOString(), id: iso });

describe('groupWorksByDay', () => {
  const now = new Date('2025-05-09T15:00:00+08:00');

  it('groups a newest-first page into days in order, keeping the order inside a day', () => {
    const works = [
      at('2025-05-09T14:00:00'),
      at('2025-05-09T09:00:00'),
      at('2025-05-08T23:59:00'),
      at('2025-05-02T10:00:00'),
      at('2024-12-31T10:00:00'),
    ];
    const groups = groupWorksByDay(works, now);
    expect(groups.map((group) => [group.day, group.label, group.works.length])).toEqual([
      ['2025-05-09', '今天', 2],
      ['2025-05-08', '昨天', 1],
      ['2025-05-02', '5月2日 星期五', 1],
      ['2024-12-31', '2024年12月31日', 1],
    ]);
    expect(groups[0]?.works.map((work) => work.id)).toEqual(['2025-05-09T14:00:00', '2025-05-09T09:00:00']);
  });

  it('puts a work made at 00:30 Beijing time (16:30 UTC the day before) under that Beijing day', () => {
    const groups = groupWorksByDay([{ createdAt: '2025-05-08T16:30:00Z' }], now);
    expect(groups.map((group) => [group.day, group.label])).toEqual([['2025-05-09', '今天']]);
  });

  it('collects unreadable dates under one heading and answers nothing for no works', () => {
    expect(groupWorksByDay([{ createdAt: 'nope' }, { createdAt: '' }], now).map((group) => group.label)).toEqual([
      '未知日期',
    ]);
    expect(groupWorksByDay([], now)).toEqual([]);
  });
});

describe('dayLabel', () => {
  it('names the weekday in Chinese without depending on the dayjs locale', () => {
    expect(dayLabel(inDisplayZone('2025-05-04T08:00:00+08:00'), inDisplayZone('2025-05-09T08:00:00+08:00'))).toBe(
      '5月4日 星期日',
    );
  });
});
