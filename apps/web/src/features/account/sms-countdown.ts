import { useEffect, useState } from 'react';

/** Seconds to wait before a code may be sent again when the server does not say. */
export const DEFAULT_RESEND_SECONDS = 60;

export function resendLabel(remaining: number): string {
  return remaining > 0 ? `${remaining} 秒后重发` : '获取验证码';
}

/** Seconds to wait from a sendCode answer: the server's `resendAfter` when usable, else the default. */
export function resendSeconds(resendAfter: unknown): number {
  return typeof resendAfter === 'number' && Number.isFinite(resendAfter) && resendAfter > 0
    ? Math.ceil(resendAfter)
    : DEFAULT_RESEND_SECONDS;
}

export function useCountdown(): { remaining: number; start: (seconds: number) => void } {
  const [remaining, setRemaining] = useState(0);
  useEffect(() => {
    if (remaining <= 0) return;
    const timer = setTimeout(() => setRemaining((value) => value - 1), 1000);
    return () => clearTimeout(timer);
  }, [remaining]);
  return { remaining, start: setRemaining };
}
