import { useEffect, useState } from 'react';
import { isRequestError } from '../../services/request-error';

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

/**
 * Seconds a refused send (HTTP 429) asks to wait, read from its message (`…请 N 秒后再试`, from both the
 * per-mobile limit and the per-address rate limit), so the button counts down what the message names.
 */
export function refusedWaitSeconds(error: unknown): number | null {
  if (!isRequestError(error) || error.status !== 429) return null;
  const match = /(\d+)\s*秒/.exec(error.message);
  const seconds = match ? Number(match[1]) : 0;
  return seconds > 0 ? seconds : DEFAULT_RESEND_SECONDS;
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
