import { describe, expect, it } from 'vitest';
import { isOrderFiltered, orderFilterOf } from './order-filter';

const day = (text: string) => ({ format: () => text });

describe('订单管理 filter', () => {
  it('sends only what the admin filled in, days as YYYY-MM-DD', () => {
    expect(orderFilterOf({})).toEqual({});
    expect(
      orderFilterOf({
        status: 'paid',
        channel: 'wechat',
        user: ' 13800138000 ',
        orderId: '  ',
        days: [day('2026-11-01'), null],
        review: true,
      }),
    ).toEqual({ status: 'paid', channel: 'wechat', user: '13800138000', dateFrom: '2026-11-01', review: 'true' });
    expect(orderFilterOf({ days: [null, day('2026-11-27')], review: false })).toEqual({ dateTo: '2026-11-27' });
  });

  it('knows an empty filter from a narrowing one', () => {
    expect(isOrderFiltered({})).toBe(false);
    expect(isOrderFiltered({ channel: 'alipay' })).toBe(true);
  });
});
