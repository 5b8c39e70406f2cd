import { inDisplayZone } from './dayjs';

/** A stored ISO time as lists and details show it (YYYY-MM-DD HH:mm, Beijing time or DISPLAY_TIME_ZONE); anything unreadable as it came. */
export function formatDateTime(value: string): string {
  const parsed = inDisplayZone(value);
  return parsed.isValid() ? parsed.format('YYYY-MM-DD HH:mm') : value;
}

/** A stored ISO time's calendar day in the display zone (YYYY-MM-DD); anything unreadable as it came. */
export function formatDate(value: string): string {
  const parsed = inDisplayZone(value);
  return parsed.isValid() ? parsed.format('YYYY-MM-DD') : value;
}
