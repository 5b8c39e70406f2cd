import type { Order, PayOrderResult } from '@huafang/contracts';
import { useCallback, useState } from 'react';
import { useNavigate } from 'react-router';
import { useSubmit } from '../account/use-submit';
import { resultPath } from './pay-state';

export interface QrPayment {
  order: Order;
  codeUrl: string;
}

/**
 * Pays an order the way its channel answered: its page (Alipay, WeChat H5) opens in this tab and comes back to the
 * result page; a WeChat Native code is kept in `qr` for the page to draw. The page never asks for JSAPI, so an
 * answer it cannot act on goes straight to the result page, where 我已支付 asks the channel.
 */
export function useCheckout(onLeave?: () => void) {
  const navigate = useNavigate();
  const { submit, submitting, error } = useSubmit();
  const [qr, setQr] = useState<QrPayment | null>(null);

  const begin = (pay: () => Promise<PayOrderResult>) =>
    submit(async () => {
      const { order, action } = await pay();
      if (action.kind === 'redirect') window.location.assign(action.url);
      else if (action.kind === 'qrcode') setQr({ order, codeUrl: action.codeUrl });
      else {
        onLeave?.();
        void navigate(resultPath(order.id));
      }
    });

  const done = useCallback(
    (order: Order) => {
      setQr(null);
      onLeave?.();
      void navigate(resultPath(order.id));
    },
    [navigate, onLeave],
  );

  return { begin, submitting, error, qr, closeQr: () => setQr(null), done };
}
