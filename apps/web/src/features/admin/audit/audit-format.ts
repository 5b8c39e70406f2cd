import dayjs from '../../../common/dayjs';

/** An entry's time in the browser's zone, to the second (entries of one request are often a second apart). */
export function auditTime(iso: string): string {
  const parsed = dayjs(iso);
  return parsed.isValid() ? parsed.format('YYYY-MM-DD HH:mm:ss') : iso;
}
