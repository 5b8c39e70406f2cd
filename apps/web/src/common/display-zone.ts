import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { appConfigQueries } from '../services/app-config';

/**
 * The zone every date is shown in: Beijing time unless the server's DISPLAY_TIME_ZONE names another, never the
 * browser's, so a user abroad and the admin in Beijing see the same day for the same work. Kept apart from
 * dayjs.ts so the first load carries no dayjs.
 */
let zone = 'Asia/Shanghai';

export function displayTimeZone(): string {
  return zone;
}

/** Takes the server's zone when this browser knows it; otherwise Beijing time stays. */
export function setDisplayTimeZone(name: string): void {
  try {
    new Intl.DateTimeFormat('zh-CN', { timeZone: name });
    zone = name;
  } catch {
    // An unknown zone name: keep the one we have.
  }
}

/** Reads the server's display settings once a visit (quietly: the default zone serves until they come). */
export function useDisplayZoneSync(): void {
  const display = useQuery(appConfigQueries.display());
  const timeZone = display.data?.timeZone;
  useEffect(() => {
    if (timeZone) setDisplayTimeZone(timeZone);
  }, [timeZone]);
}
