import dayjs from 'dayjs';
import timezone from 'dayjs/plugin/timezone';
import utc from 'dayjs/plugin/utc';
import 'dayjs/locale/zh-cn';
import { displayTimeZone } from './display-zone';

// Dates are formatted in Chinese. Set here rather than in main.tsx so dayjs stays out of the first load of pages
// that show no dates: import dayjs from this module, not from 'dayjs'.
dayjs.locale('zh-cn');
dayjs.extend(utc);
dayjs.extend(timezone);

/** The value (now when left out) in the display zone (common/display-zone.ts), for format(), day() and days. */
export function inDisplayZone(value?: dayjs.ConfigType): dayjs.Dayjs {
  return dayjs(value).tz(displayTimeZone());
}

/**
 * The display zone's offset now in minutes as `Date#getTimezoneOffset()` counts them (-480 in Beijing): what the
 * servers' day filters (`tzOffset`) expect.
 */
export function displayZoneOffset(): number {
  return -inDisplayZone().utcOffset() || 0;
}

/**
 * Whether a calendar day picked in a date picker comes after today in the display zone: the pickers offer days up
 * to the display zone's today, whatever the browser's zone says.
 */
export function isAfterDisplayToday(day: dayjs.Dayjs): boolean {
  return day.format('YYYY-MM-DD') > inDisplayZone().format('YYYY-MM-DD');
}

export default dayjs;
