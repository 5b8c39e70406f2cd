import type { WechatAuthorize, WechatOpenid } from '@huafang/contracts';
import type { FastifyBaseLogger } from 'fastify';
import { fail } from '../../platform/errors.js';
import type { WechatPayConfig } from './wechatpay-config.js';
import { openidForCode, snsapiBaseAuthorizeUrl, WechatOAuthError } from './wechatpay-oauth.js';

/**
 * The openid step of paying inside WeChat (JSAPI): the page is sent to the official account's silent authorisation
 * and comes back with a code, which is exchanged here for the buyer's openid. Off unless an official account is set.
 */
export class WechatOAuthService {
  constructor(
    private readonly wechatPay: WechatPayConfig | undefined,
    private readonly publicBaseUrl: string | undefined,
    private readonly log: FastifyBaseLogger,
  ) {}

  private account() {
    const account = this.wechatPay?.officialAccount;
    if (!account || !this.publicBaseUrl) throw fail('未开通微信内支付，请使用扫码或其他支付方式');
    return account;
  }

  /** WeChat comes back to PUBLIC_BASE_URL + returnPath, which must lie under the account's 网页授权域名. */
  authorizeUrl(returnPath: string, state: string): WechatAuthorize {
    return { url: snsapiBaseAuthorizeUrl(this.account(), `${this.publicBaseUrl}${returnPath}`, state) };
  }

  async openid(code: string): Promise<WechatOpenid> {
    const account = this.account();
    try {
      return { openid: await openidForCode(account, code, this.wechatPay?.timeoutMs) };
    } catch (err) {
      if (!(err instanceof WechatOAuthError)) throw err;
      // A code is good once and for five minutes: going back to the page and paying again gets a new one.
      this.log.warn({ errcode: err.errcode, err: err.message }, 'wechat oauth: code exchange failed');
      throw fail('微信授权已失效，请重新发起支付');
    }
  }
}
