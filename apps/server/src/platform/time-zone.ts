/**
 * Days and times as the product shows them: in one configured zone (DISPLAY_TIME_ZONE, Asia/Shanghai by default),
 * never the machine's TZ, so a server in a UTC container still names Beijing days in 数据看板, file names and
 * exports.
 */

/** Whether Intl knows the zone name (Asia/Shanghai, UTC, America/New_York …). */
export function isTimeZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

type Parts = { year: string; month: string; day: string; hour: string; minute: string; second: string };

function partsIn(instant: Date | number, timeZone: string): Parts {
  const format = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  });
  const parts = Object.fromEntries(format.formatToParts(instant).map((part) => [part.type, part.value]));
  return parts as Parts;
}

/** YYYY-MM-DD: the calendar day of the instant in the zone. */
export function dayIn(instant: Date | number, timeZone: string): string {
  const p = partsIn(instant, timeZone);
  return `${p.year}-${p.month}-${p.day}`;
}

/** YYYY-MM-DDTHH:mm:ss: the wall-clock time of the instant in the zone, without an offset. */
export function wallTimeIn(instant: Date | number, timeZone: string): string {
  const p = partsIn(instant, timeZone);
  return `${p.year}-${p.month}-${p.day}T${p.hour}:${p.minute}:${p.second}`;
}

/** Minutes the zone is ahead of UTC at the instant (480 in Beijing). */
export function offsetMinutesIn(instant: Date | number, timeZone: string): number {
  const ms = typeof instant === 'number' ? instant : instant.getTime();
  const wall = Date.parse(`${wallTimeIn(ms, timeZone)}Z`);
  return Math.round((wall - Math.floor(ms / 1000) * 1000) / 60_000);
}

/** The instant a zone day (YYYY-MM-DD) begins, in ms. */
export function dayStartIn(day: string, timeZone: string): number {
  const guess = Date.parse(`${day}T00:00:00Z`);
  // The offset at the guess, then again at the corrected instant: right across a daylight-saving change too.
  const first = guess - offsetMinutesIn(guess, timeZone) * 60_000;
  return guess - offsetMinutesIn(first, timeZone) * 60_000;
}

/** The zone day `n` days after `day` (calendar arithmetic, no zone involved). */
export function addDays(day: string, n: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);
}

/** A download's file name stamped with today in the zone: `audit-log` → audit-log-2026-03-02.csv. */
export function datedFileName(stem: string, extension: string, timeZone: string, now = Date.now()): string {
  return `${stem}-${dayIn(now, timeZone)}.${extension}`;
}
