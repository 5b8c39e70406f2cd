import type { PayChannelInfo, PayDevice, PaymentChannelName } from '@huafang/contracts';

/** What is being paid: a plan from 套餐商店 (a new order, or the pending one reused), or a pending order again. */
export type PayTarget = { planId: string; channel: PaymentChannelName } | { orderId: string };

/** Where a channel's page sends the buyer back to: the result page of the order (`{orderId}` is filled in by the server). */
export const RESULT_RETURN_PATH = '/account/orders/{orderId}/result';

export function resultPath(orderId: string): string {
  return `/account/orders/${encodeURIComponent(orderId)}/result`;
}

/**
 * How this browser pays: WeChat's own browser (MicroMessenger in its user agent) through WeixinJSBridge (JSAPI), a
 * phone (a mobile user agent or a phone-wide window) on the channel's H5 / wap page, anything else on the desktop
 * page or a QR code.
 */
export function payDeviceOf(userAgent: string, phoneWide: boolean): PayDevice {
  if (/MicroMessenger/i.test(userAgent)) return 'wechat';
  return phoneWide || /Mobile|Android|iPhone|iPad|HarmonyOS/i.test(userAgent) ? 'phone' : 'desktop';
}

/**
 * The configured channels that can take a payment from this device, in the server's order. Inside WeChat that is
 * WeChat Pay through JSAPI only: WeChat's browser blocks Alipay's pages and refuses WeChat's own H5 payment.
 */
export function channelsFor(channels: PayChannelInfo[], device: PayDevice): PayChannelInfo[] {
  return channels.filter((channel) => channel.devices.includes(device));
}

/** Whole seconds left until `expiresAt`, never below 0. */
export function secondsLeft(expiresAt: string, now: number): number {
  const end = Date.parse(expiresAt);
  if (Number.isNaN(end)) return 0;
  return Math.max(0, Math.ceil((end - now) / 1000));
}

/** 905 → 15:05 */
export function formatCountdown(seconds: number): string {
  const minutes = Math.floor(seconds / 60);
  return `${String(minutes).padStart(2, '0')}:${String(seconds % 60).padStart(2, '0')}`;
}

/**
 * An amount typed in yuan (49, 49.5, 49.50) as fen; null when it is not a positive amount with at most two
 * decimals. Read from the text so 0.1 + 0.2 style rounding never changes what the admin typed.
 */
export function yuanToFen(yuan: string | number | null | undefined): number | null {
  if (yuan === null || yuan === undefined) return null;
  const text = String(yuan).trim();
  const match = /^(\d+)(?:\.(\d{1,2}))?$/.exec(text);
  if (!match) return null;
  const fen = Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
  return fen > 0 && Number.isSafeInteger(fen) ? fen : null;
}

/** 4900 → "49.00", what a yuan field starts with. */
export function fenToYuanText(fen: number): string {
  return `${Math.floor(fen / 100)}.${String(fen % 100).padStart(2, '0')}`;
}

/**
 * The credits a refund of `amountFen` out of `refundableFen` takes back, in proportion to `creditsToTake` (what
 * refunding all of it would take): an estimate for the dialog, the server decides.
 */
export function creditsForRefund(amountFen: number, refundableFen: number, creditsToTake: number): number {
  if (refundableFen <= 0 || amountFen <= 0) return 0;
  if (amountFen >= refundableFen) return creditsToTake;
  return Math.floor((creditsToTake * amountFen) / refundableFen);
}
