import dayjs from './dayjs';

/** A stored ISO time as lists and details show it (YYYY-MM-DD HH:mm, local time); anything unreadable as it came. */
export function formatDateTime(value: string): string {
  const parsed = dayjs(value);
  return parsed.isValid() ? parsed.format('YYYY-MM-DD HH:mm') : value;
}
