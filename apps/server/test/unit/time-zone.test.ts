import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { addDays, dayIn, dayStartIn, isTimeZone, offsetMinutesIn, wallTimeIn } from '../../src/platform/time-zone.js';

// 2026-03-01 16:30 UTC is 2026-03-02 00:30 in Beijing: the day differs between the zones.
const LATE_UTC = Date.parse('2026-03-01T16:30:00Z');

describe('display time zone', () => {
  it('names the Beijing day and wall time of an instant, whatever TZ the process runs in', () => {
    expect(dayIn(LATE_UTC, 'Asia/Shanghai')).toBe('2026-03-02');
    expect(wallTimeIn(LATE_UTC, 'Asia/Shanghai')).toBe('2026-03-02T00:30:00');
    expect(dayIn(LATE_UTC, 'UTC')).toBe('2026-03-01');
    expect(offsetMinutesIn(LATE_UTC, 'Asia/Shanghai')).toBe(480);
  });

  it('finds when a zone day begins, across a daylight-saving change too', () => {
    expect(new Date(dayStartIn('2026-03-02', 'Asia/Shanghai')).toISOString()).toBe('2026-03-01T16:00:00.000Z');
    // New York moves to summer time on 2026-03-08 at 02:00: midnight is still UTC-5, the next day UTC-4.
    expect(new Date(dayStartIn('2026-03-08', 'America/New_York')).toISOString()).toBe('2026-03-08T05:00:00.000Z');
    expect(new Date(dayStartIn('2026-03-09', 'America/New_York')).toISOString()).toBe('2026-03-09T04:00:00.000Z');
    expect(addDays('2026-02-28', 1)).toBe('2026-03-01');
  });

  it('accepts IANA names only', () => {
    expect(isTimeZone('Asia/Shanghai')).toBe(true);
    expect(isTimeZone('Beijing')).toBe(false);
  });

  it('gives the same answers in a process started with TZ=UTC and with TZ=America/New_York', () => {
    const script = `import('${new URL('../../src/platform/time-zone.ts', import.meta.url).pathname}').then((m) => {
      process.stdout.write([m.dayIn(${LATE_UTC}, 'Asia/Shanghai'), m.dayStartIn('2026-03-02', 'Asia/Shanghai')].join(' '));
    })`;
    for (const tz of ['UTC', 'America/New_York']) {
      const out = execFileSync(process.execPath, ['--import', 'tsx', '-e', script], {
        env: { ...process.env, TZ: tz },
        encoding: 'utf8',
      });
      expect(out).toBe(`2026-03-02 ${Date.parse('2026-03-01T16:00:00Z')}`);
    }
  });
});
