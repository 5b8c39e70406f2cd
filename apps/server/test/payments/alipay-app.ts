import { afterAll, beforeAll } from 'vitest';
import type { AlipayDouble } from '../doubles/alipay-double.js';
import { freePort } from '../helpers/free-port.js';
import { useTestApp } from '../helpers/use-test-app.js';

/**
 * An app whose only payment channel is Alipay, pointed at `double` as its gateway. The double's cashier sends its
 * notifications to PUBLIC_BASE_URL, so the app listens there.
 */
export function useAlipayApp(double: AlipayDouble) {
  let port = 0;
  beforeAll(async () => {
    await double.start();
    port = await freePort();
  });
  const ctx = useTestApp({
    admin: true,
    config: () => ({
      payments: { orderTtlMs: 15 * 60_000, publicBaseUrl: `http://127.0.0.1:${port}`, alipay: double.config() },
    }),
  });
  beforeAll(async () => {
    await ctx.app.app.listen({ port, host: '127.0.0.1' });
  });
  afterAll(() => double.close());
  return {
    ctx,
    /** PUBLIC_BASE_URL: where the app listens. */
    baseUrl: () => `http://127.0.0.1:${port}`,
    notifyUrl: () => `http://127.0.0.1:${port}/api/pay/notify/alipay`,
  };
}
