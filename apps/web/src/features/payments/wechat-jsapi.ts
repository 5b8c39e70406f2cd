import { fetchWechatAuthorize } from '../../services/payments';
import type { KeyValueStorage } from '../../stores/session-storage';
import { tabStorage } from '../account/pending-action';
import type { PayTarget } from './pay-state';

/**
 * Paying inside WeChat (JSAPI): the buyer's openid under the official account comes from its silent authorisation
 * (the page leaves for WeChat and comes back to WECHAT_RETURN_PATH with a code), is kept for the tab, and the order's
 * signed parameters go to WeixinJSBridge's getBrandWCPayRequest, which shows WeChat's own payment sheet.
 */

export const WECHAT_RETURN_PATH = '/account/pay/wechat';
const OPENID_KEY = 'hf-wechat-openid';
const STATE_KEY = 'hf-wechat-oauth-state';

export function savedOpenid(storage: KeyValueStorage = tabStorage()): string | null {
  return storage.getItem(OPENID_KEY);
}

export function saveOpenid(openid: string, storage: KeyValueStorage = tabStorage()): void {
  storage.setItem(OPENID_KEY, openid);
}

/** The path WeChat comes back to, naming what to pay (only WeChat Pay goes through its authorisation). */
export function wechatReturnPath(target: PayTarget): string {
  const query =
    'orderId' in target
      ? new URLSearchParams({ orderId: target.orderId })
      : new URLSearchParams({ planId: target.planId });
  return `${WECHAT_RETURN_PATH}?${query}`;
}

/** What to pay, read back from the return address; null when it names neither a plan nor an order. */
export function wechatTargetOf(search: URLSearchParams): PayTarget | null {
  const orderId = search.get('orderId');
  if (orderId) return { orderId };
  const planId = search.get('planId');
  return planId ? { planId, channel: 'wechat' } : null;
}

/** Sends the tab to the official account's authorisation; a random state ties WeChat's answer to this tab. */
export async function authorizeInWechat(target: PayTarget, storage: KeyValueStorage = tabStorage()) {
  const bytes = crypto.getRandomValues(new Uint8Array(12));
  const state = Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
  storage.setItem(STATE_KEY, state);
  const { url } = await fetchWechatAuthorize({ returnPath: wechatReturnPath(target), state });
  window.location.assign(url);
}

/** Whether WeChat came back with the state this tab sent (once: it is forgotten here). */
export function takeState(state: string | null, storage: KeyValueStorage = tabStorage()): boolean {
  const sent = storage.getItem(STATE_KEY);
  storage.removeItem(STATE_KEY);
  return sent !== null && sent === state;
}

type WeixinJSBridge = {
  invoke(api: 'getBrandWCPayRequest', params: Record<string, string>, done: (res: { err_msg: string }) => void): void;
};

declare global {
  interface Window {
    WeixinJSBridge?: WeixinJSBridge;
  }
}

/** How long to wait for WeChat's bridge before going on to the result page, which asks WeChat itself. */
const BRIDGE_WAIT_MS = 10_000;
/** Longer than a buyer takes to pay in WeChat's sheet (entering the password, choosing a card). */
const SHEET_WAIT_MS = 5 * 60_000;

/** WeChat injects its bridge after the page loads (WeixinJSBridgeReady says when); null if it never comes. */
function bridge(): Promise<WeixinJSBridge | null> {
  if (window.WeixinJSBridge) return Promise.resolve(window.WeixinJSBridge);
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(null), BRIDGE_WAIT_MS);
    document.addEventListener(
      'WeixinJSBridgeReady',
      () => {
        clearTimeout(timer);
        resolve(window.WeixinJSBridge ?? null);
      },
      { once: true },
    );
  });
}

/**
 * WeChat's payment sheet for the order's signed parameters: 'ok' once paid (the server still waits for the
 * notification or asks WeChat), 'cancel' when the buyer closed it, 'fail' otherwise (no bridge in time included).
 */
export async function payInWechat(params: Record<string, string>): Promise<'ok' | 'cancel' | 'fail'> {
  const jsBridge = await bridge();
  if (!jsBridge) return 'fail';
  return new Promise((resolve) => {
    // A sheet WeChat never answers for: the result page asks WeChat itself rather than the page spinning on.
    const timer = setTimeout(() => resolve('fail'), SHEET_WAIT_MS);
    jsBridge.invoke('getBrandWCPayRequest', params, (res) => {
      clearTimeout(timer);
      if (res.err_msg === 'get_brand_wcpay_request:ok') resolve('ok');
      else resolve(res.err_msg === 'get_brand_wcpay_request:cancel' ? 'cancel' : 'fail');
    });
  });
}
