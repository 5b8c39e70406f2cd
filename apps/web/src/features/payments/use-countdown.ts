import { useEffect, useState } from 'react';
import { formatCountdown, secondsLeft } from './pay-state';

/** The time left until an order expires, as 14:59, ticking every second; `over` once it has run out. */
export function useCountdown(expiresAt: string) {
  const [now, setNow] = useState(() => Date.now());
  const left = secondsLeft(expiresAt, now);
  const over = left <= 0;
  useEffect(() => {
    if (over) return;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [over]);
  return { text: formatCountdown(left), over };
}
