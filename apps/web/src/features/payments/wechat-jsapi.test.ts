import { afterEach, describe, expect, it, vi } from 'vitest';
import { payInWechat, takeState, wechatReturnPath, wechatTargetOf } from './wechat-jsapi';

function memoryStorage() {
  const map = new Map<string, string>();
  return {
    getItem: (key: string) => map.get(key) ?? null,
    setItem: (key: string, value: string) => void map.set(key, value),
    removeItem: (key: string) => void map.delete(key),
  };
}

describe('paying inside WeChat', () => {
  it('names what to pay in the address WeChat comes back to, and reads it back', () => {
    const plan = { planId: 'BPddYX17kvaKG5RT', channel: 'wechat' as const };
    const path = wechatReturnPath(plan);
    expect(path).toBe('/account/pay/wechat?planId=BPddYX17kvaKG5RT');
    const back = new URL(`https://huafang.example.com${path}&code=abc&state=s`);
    expect(wechatTargetOf(back.searchParams)).toEqual(plan);
    const again = new URL(`https://huafang.example.com${wechatReturnPath({ orderId: 'q_spy' })}`);
    expect(wechatTargetOf(again.searchParams)).toEqual({ orderId: 'q_spy' });
    expect(wechatTargetOf(new URLSearchParams('code=abc'))).toBeNull();
  });

  it('takes WeChat’s answer only with the state this tab sent, and only once', () => {
    const storage = memoryStorage();
    storage.setItem('hf-wechat-oauth-state', 'a1b2c3d4e5f6');
    expect(takeState('someone-else', storage)).toBe(false);
    storage.setItem('hf-wechat-oauth-state', 'a1b2c3d4e5f6');
    expect(takeState('a1b2c3d4e5f6', storage)).toBe(true);
    expect(takeState('a1b2c3d4e5f6', storage)).toBe(false);
    expect(takeState(null, memoryStorage())).toBe(false);
  });

  describe('WeChat’s payment sheet', () => {
    afterEach(() => {
      vi.useRealTimers();
      vi.unstubAllGlobals();
    });

    it('opens once WeChat’s bridge is ready, and says the buyer paid', async () => {
      const page: { WeixinJSBridge?: unknown } = {};
      const events = new EventTarget();
      vi.stubGlobal('window', page);
      vi.stubGlobal('document', events);
      const invoked: unknown[] = [];
      const paying = payInWechat({ package: 'prepay_id=wx1' });
      page.WeixinJSBridge = {
        invoke: (api: string, params: unknown, done: (res: { err_msg: string }) => void) => {
          invoked.push([api, params]);
          done({ err_msg: 'get_brand_wcpay_request:ok' });
        },
      };
      events.dispatchEvent(new Event('WeixinJSBridgeReady'));
      await expect(paying).resolves.toBe('ok');
      expect(invoked).toEqual([['getBrandWCPayRequest', { package: 'prepay_id=wx1' }]]);
    });

    it('goes on as not paid when the bridge never comes, so the result page asks WeChat instead of spinning', async () => {
      vi.useFakeTimers();
      vi.stubGlobal('window', {});
      vi.stubGlobal('document', new EventTarget());
      const paying = payInWechat({ package: 'prepay_id=wx2' });
      await vi.advanceTimersByTimeAsync(10_000);
      await expect(paying).resolves.toBe('fail');
    });
  });
});
