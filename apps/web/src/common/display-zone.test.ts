import { afterAll, describe, expect, it } from 'vitest';
import { groupWorksByDay } from '../features/gallery/work-days';
import { displayZoneOffset } from './dayjs';
import { displayTimeZone, setDisplayTimeZone } from './display-zone';
import { formatDate, formatDateTime } from './format-date-time';

const machineZone = process.env.TZ;
afterAll(() => {
  process.env.TZ = machineZone;
  setDisplayTimeZone('Asia/Shanghai');
});

// Node reads TZ again whenever it is assigned: each case runs as if the browser sat in that zone.
describe.each(['UTC', 'America/New_York'])('dates on a machine in %s', (tz) => {
  it('are shown in Beijing time', () => {
    process.env.TZ = tz;
    setDisplayTimeZone('Asia/Shanghai');
    expect(formatDateTime('2026-03-01T16:30:00.000Z')).toBe('2026-03-02 00:30');
    // 「N 算力将于 … 过期」 names the Beijing day.
    expect(formatDate('2026-03-01T16:30:00.000Z')).toBe('2026-03-02');
    expect(
      groupWorksByDay([{ createdAt: '2026-03-01T16:30:00.000Z' }], new Date('2026-03-02T04:00:00Z'))[0],
    ).toMatchObject({ day: '2026-03-02', label: '今天' });
    expect(displayZoneOffset()).toBe(-480);
  });

  it('follow another zone when the server names one, and ignore a name the browser does not know', () => {
    process.env.TZ = tz;
    setDisplayTimeZone('UTC');
    expect(formatDateTime('2026-03-01T16:30:00.000Z')).toBe('2026-03-01 16:30');
    expect(displayZoneOffset()).toBe(0);
    setDisplayTimeZone('Mars/Olympus');
    expect(displayTimeZone()).toBe('UTC');
    setDisplayTimeZone('Asia/Shanghai');
  });
});
