import type dayjs from '../../common/dayjs';
import { inDisplayZone } from '../../common/dayjs';

export interface WorkDayGroup<T> {
  /** YYYY-MM-DD in the display zone (Beijing time), whatever the browser's zone. */
  day: string;
  /** 今天, 昨天, 5月3日 星期五, or 2024年5月3日 for other years. */
  label: string;
  works: T[];
}

const WEEKDAYS = ['星期日', '星期一', '星期二', '星期三', '星期四', '星期五', '星期六'];

export function dayLabel(day: dayjs.Dayjs, now: dayjs.Dayjs): string {
  if (day.isSame(now, 'day')) return '今天';
  if (day.isSame(now.subtract(1, 'day'), 'day')) return '昨天';
  if (day.year() !== now.year()) return day.format('YYYY年M月D日');
  return `${day.format('M月D日')} ${WEEKDAYS[day.day()]}`;
}

/** Splits a page of works (newest first) into days by createdAt, keeping the server's order inside each day. */
export function groupWorksByDay<T extends { createdAt: string }>(
  works: T[],
  now: Date = new Date(),
): WorkDayGroup<T>[] {
  const today = inDisplayZone(now);
  const groups: WorkDayGroup<T>[] = [];
  for (const work of works) {
    const created = inDisplayZone(work.createdAt);
    const day = created.isValid() ? created.format('YYYY-MM-DD') : '';
    let group = groups.find((candidate) => candidate.day === day);
    if (!group) {
      group = { day, label: created.isValid() ? dayLabel(created, today) : '未知日期', works: [] };
      groups.push(group);
    }
    group.works.push(work);
  }
  return groups;
}
