import type { Order, PayDevice, PayOrderResult } from '@huafang/contracts';
import { useCallback, useState } from 'react';
import { useNavigate } from 'react-router';
import { createOrder, exchangeWechatCode, payAgain } from '../../services/payments';
import { useSubmit } from '../account/use-submit';
import { type PayTarget, RESULT_RETURN_PATH, resultPath } from './pay-state';
import { authorizeInWechat, payInWechat, savedOpenid, saveOpenid } from './wechat-jsapi';

export interface QrPayment {
  order: Order;
  codeUrl: string;
}

function requestPay(target: PayTarget, device: PayDevice, openid?: string): Promise<PayOrderResult> {
  const how = { device, returnPath: RESULT_RETURN_PATH, ...(openid ? { openid } : {}) };
  return 'orderId' in target
    ? payAgain(target.orderId, how)
    : createOrder({ planId: target.planId, channel: target.channel, ...how });
}

/**
 * Pays an order the way its channel answered: its page (Alipay, WeChat H5) opens in this tab and comes back to the
 * result page; a WeChat Native code is kept in `qr` for the page to draw; inside WeChat, WeChat's own payment sheet
 * opens over the page, which then moves to the result page (paid or not: it asks the channel and offers 我已支付).
 */
export function useCheckout(onLeave?: () => void) {
  const navigate = useNavigate();
  const { submit, submitting, error } = useSubmit();
  const [qr, setQr] = useState<QrPayment | null>(null);

  const leaveFor = useCallback(
    (order: Order) => {
      onLeave?.();
      void navigate(resultPath(order.id));
    },
    [navigate, onLeave],
  );

  const follow = async (pay: () => Promise<PayOrderResult>) => {
    const { order, action } = await pay();
    if (action.kind === 'redirect') window.location.assign(action.url);
    else if (action.kind === 'qrcode') setQr({ order, codeUrl: action.codeUrl });
    else {
      await payInWechat(action.params);
      leaveFor(order);
    }
  };
  const begin = (pay: () => Promise<PayOrderResult>) => submit(() => follow(pay));

  /**
   * Pays `target` on `device`. Inside WeChat the order needs the buyer's openid: without one for this tab the page
   * first leaves for the official account's authorisation, and pays when it comes back (payWithCode).
   */
  const pay = (target: PayTarget, device: PayDevice) => {
    if (device !== 'wechat') return begin(() => requestPay(target, device));
    const openid = savedOpenid();
    return openid ? begin(() => requestPay(target, device, openid)) : submit(() => authorizeInWechat(target));
  };

  /** Back from the official account's authorisation with `code`: its openid is kept for the tab, and `target` paid. */
  const payWithCode = (target: PayTarget, code: string) =>
    submit(async () => {
      const { openid } = await exchangeWechatCode(code);
      saveOpenid(openid);
      await follow(() => requestPay(target, 'wechat', openid));
    });

  const done = useCallback(
    (order: Order) => {
      setQr(null);
      leaveFor(order);
    },
    [leaveFor],
  );

  return { pay, payWithCode, submitting, error, qr, closeQr: () => setQr(null), done };
}
