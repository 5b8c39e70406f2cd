import { z } from 'zod';
import type { WechatOfficialAccount } from './wechatpay-config.js';

/**
 * JSAPI pays as the buyer's openid under the official account, which its web page authorisation gives: the page
 * sends the WeChat browser to the snsapi_base authorize URL (silent, no consent screen), WeChat comes back to
 * `redirectUri?code=…&state=…`, and the server exchanges the code for the openid
 * (developers.weixin.qq.com/doc/offiaccount/OA_Web_Apps/Wechat_webpage_authorization.html).
 */

/** The authorize URL; `redirectUri` must be under the 网页授权域名 set in the official account. */
export function snsapiBaseAuthorizeUrl(account: WechatOfficialAccount, redirectUri: string, state: string): string {
  // WeChat reads the parameters in this order and needs the #wechat_redirect fragment.
  const query = [
    `appid=${encodeURIComponent(account.appId)}`,
    `redirect_uri=${encodeURIComponent(redirectUri)}`,
    'response_type=code',
    'scope=snsapi_base',
    `state=${encodeURIComponent(state)}`,
  ].join('&');
  return `${account.authorizeBaseUrl}/connect/oauth2/authorize?${query}#wechat_redirect`;
}

const accessTokenAnswer = z.union([
  z.object({ openid: z.string().min(1) }),
  z.object({ errcode: z.number(), errmsg: z.string().optional() }),
]);

/** The exchange failed: a code used twice or older than 5 minutes (40029, 40163), a wrong app secret (40125)… */
export class WechatOAuthError extends Error {
  constructor(
    readonly errcode: number | undefined,
    message: string,
  ) {
    super(message);
  }
}

/** The openid of the buyer WeChat came back with this code for. */
export async function openidForCode(account: WechatOfficialAccount, code: string, timeoutMs = 10_000): Promise<string> {
  const query = new URLSearchParams({
    appid: account.appId,
    secret: account.appSecret,
    code,
    grant_type: 'authorization_code',
  });
  let body: unknown;
  try {
    const answer = await fetch(`${account.apiBaseUrl}/sns/oauth2/access_token?${query}`, {
      signal: AbortSignal.timeout(timeoutMs),
    });
    body = await answer.json();
  } catch (err) {
    // The URL holds the app secret: the message names the step, never the address.
    throw new WechatOAuthError(undefined, `微信网页授权换取 openid 失败：${(err as Error).name}`);
  }
  const parsed = accessTokenAnswer.safeParse(body);
  if (!parsed.success) throw new WechatOAuthError(undefined, '微信网页授权换取 openid 失败：应答格式不符');
  if ('errcode' in parsed.data) {
    throw new WechatOAuthError(
      parsed.data.errcode,
      `微信网页授权换取 openid 失败：${parsed.data.errcode} ${parsed.data.errmsg ?? ''}`.trim(),
    );
  }
  return parsed.data.openid;
}
