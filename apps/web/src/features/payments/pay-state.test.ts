import { formatFen } from '@huafang/contracts';
import { describe, expect, it } from 'vitest';
import {
  channelsFor,
  creditsForRefund,
  fenToYuanText,
  formatCountdown,
  payDeviceOf,
  resultPath,
  secondsLeft,
  yuanToFen,
} from './pay-state';

const IPHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148';
const DESKTOP = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/131.0 Safari/537.36';
const WECHAT = `${IPHONE} MicroMessenger/8.0.50(0x1800323c) NetType/WIFI Language/zh_CN`;

describe('money', () => {
  it('shows fen as yuan with two decimals', () => {
    expect(formatFen(4900)).toBe('¥49.00');
    expect(formatFen(1)).toBe('¥0.01');
    expect(formatFen(105)).toBe('¥1.05');
    expect(formatFen(0)).toBe('¥0.00');
    expect(formatFen(-250)).toBe('-¥2.50');
    expect(formatFen(10_000_000)).toBe('¥100000.00');
  });

  it('reads yuan typed by an admin as fen, exactly', () => {
    expect(yuanToFen('49')).toBe(4900);
    expect(yuanToFen('49.5')).toBe(4950);
    expect(yuanToFen(' 0.01 ')).toBe(1);
    expect(yuanToFen('0.29')).toBe(29);
    expect(yuanToFen(19.99)).toBe(1999);
    expect(yuanToFen('0')).toBeNull();
    expect(yuanToFen('1.005')).toBeNull();
    expect(yuanToFen('-1')).toBeNull();
    expect(yuanToFen('abc')).toBeNull();
    expect(yuanToFen('')).toBeNull();
    expect(yuanToFen(null)).toBeNull();
  });

  it('writes fen back as the yuan a field starts with', () => {
    expect(fenToYuanText(4900)).toBe('49.00');
    expect(fenToYuanText(5)).toBe('0.05');
  });
});

describe('paying', () => {
  it('pays on the phone page from a phone or a phone-wide window, else on the desktop page', () => {
    expect(payDeviceOf(IPHONE, false)).toBe('phone');
    expect(payDeviceOf(DESKTOP, true)).toBe('phone');
    expect(payDeviceOf(DESKTOP, false)).toBe('desktop');
    expect(payDeviceOf(WECHAT, true)).toBe('wechat');
  });

  it('offers inside WeChat only WeChat Pay through JSAPI', () => {
    const alipay = { name: 'alipay' as const, label: '支付宝', devices: ['desktop' as const, 'phone' as const] };
    const jsapi = {
      name: 'wechat' as const,
      label: '微信支付',
      devices: ['desktop' as const, 'phone' as const, 'wechat' as const],
    };
    const noJsapi = { ...jsapi, devices: ['desktop' as const, 'phone' as const] };
    expect(channelsFor([alipay, jsapi], 'wechat').map((c) => c.name)).toEqual(['wechat']);
    expect(channelsFor([alipay, noJsapi], 'wechat')).toEqual([]);
    expect(channelsFor([alipay, noJsapi], 'phone').map((c) => c.name)).toEqual(['alipay', 'wechat']);
  });

  it('offers only the channels that take this device', () => {
    const channels = [
      { name: 'alipay' as const, label: '支付宝', devices: ['desktop' as const, 'phone' as const] },
      { name: 'wechat' as const, label: '微信支付', devices: ['desktop' as const] },
    ];
    expect(channelsFor(channels, 'phone').map((c) => c.name)).toEqual(['alipay']);
    expect(channelsFor(channels, 'desktop').map((c) => c.name)).toEqual(['alipay', 'wechat']);
  });

  it('counts down to the expiry and never below zero', () => {
    const now = Date.parse('2026-11-27T10:00:00Z');
    expect(secondsLeft('2026-11-27T10:15:00Z', now)).toBe(900);
    expect(secondsLeft('2026-11-27T10:00:00.400Z', now)).toBe(1);
    expect(secondsLeft('2026-11-27T09:59:00Z', now)).toBe(0);
    expect(secondsLeft('not a date', now)).toBe(0);
    expect(formatCountdown(905)).toBe('15:05');
    expect(formatCountdown(59)).toBe('00:59');
    expect(formatCountdown(0)).toBe('00:00');
  });

  it('names the result page of an order', () => {
    expect(resultPath('P2026 1')).toBe('/account/orders/P2026%201/result');
  });

  it('estimates the credits a refund takes back in proportion', () => {
    expect(creditsForRefund(4900, 4900, 500)).toBe(500);
    expect(creditsForRefund(2450, 4900, 500)).toBe(250);
    expect(creditsForRefund(1, 4900, 500)).toBe(0);
    expect(creditsForRefund(9999, 4900, 500)).toBe(500);
    expect(creditsForRefund(100, 0, 500)).toBe(0);
  });
});
