import { inDisplayZone } from '../../../common/dayjs';

/** An entry's time in the display zone (Beijing time), to the second (entries of one request are often a second apart). */
export function auditTime(iso: string): string {
  const parsed = inDisplayZone(iso);
  return parsed.isValid() ? parsed.format('YYYY-MM-DD HH:mm:ss') : iso;
}
