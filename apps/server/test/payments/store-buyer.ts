import type { Order, PayAction, PayDevice, PaymentChannelName } from '@huafang/contracts';
import { expect } from 'vitest';
import { registerUser, type TestApp, type TestUser } from '../helpers/test-app.js';

/** A plan of 套餐商店 as the buyer sees it. */
export type StorePlan = { id: string; name: string; priceFen: number; credits: number };

export type Purchase = { buyer: TestUser; orderId: string; action: PayAction; start: number };

/**
 * The buyer's side of 套餐商店 through the API, the same for every channel's settlement tests: the store's plans, a
 * new buyer's order, the order and balance as the result page polls them, 我已支付.
 */
export function storeBuyer(app: () => TestApp, channel: PaymentChannelName) {
  const orderOf = async (buyer: TestUser, orderId: string): Promise<{ order: Order; credits: number }> =>
    (await app().call('GET', `/api/pay/orders/${orderId}`, { token: buyer.token })).body.data;

  return {
    /** The plans on sale and the channels offered, as a new user's 套餐商店 shows them. */
    async store() {
      const someone = await registerUser(app());
      return (await app().call('GET', '/api/account/combo/store', { token: someone.token })).body.data as {
        notice: string | null;
        channels: { name: string; label: string; devices: string[] }[];
        plans: StorePlan[];
      };
    },

    /** A new buyer orders `plan` with this channel: the order, how the page is to pay it, the credits before. */
    async order(plan: StorePlan, device: PayDevice, extra: { openid?: string } = {}): Promise<Purchase> {
      const buyer = await registerUser(app());
      const res = await app().call('POST', '/api/pay/orders', {
        token: buyer.token,
        body: { planId: plan.id, channel, device, ...extra },
      });
      expect(res.body.code, res.body.msg).toBe(0);
      const { order, action } = res.body.data as { order: Order; action: PayAction };
      return { buyer, orderId: order.id, action, start: (await orderOf(buyer, order.id)).credits };
    },

    orderOf,
    balance: async (buyer: TestUser, orderId: string) => (await orderOf(buyer, orderId)).credits,
    /** 我已支付: the server asks the channel. */
    check: (buyer: TestUser, orderId: string, on: TestApp = app()) =>
      on.call('POST', `/api/pay/orders/${orderId}/check`, { token: buyer.token }),
    async myOrders(buyer: TestUser): Promise<{ total: number; list: Order[] }> {
      return (await app().call('GET', '/api/pay/orders', { token: buyer.token })).body.data;
    },
  };
}
