import { formatFen, type Order, PAYMENT_CHANNEL_LABELS } from '@huafang/contracts';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, QRCode } from 'antd';
import { useEffect } from 'react';
import { fetchOrder, paymentKeys } from '../../services/payments';
import { useCountdown } from './use-countdown';
import './payments.css';

/** How often the QR code's order is read while the buyer scans it. */
const POLL_MS = 3000;
/** The app the buyer scans with: one says 微信扫一扫, not 微信支付扫一扫. */
const SCANNING_APPS = { alipay: '支付宝', wechat: '微信' } as const;

interface QrPayPanelProps {
  order: Order;
  codeUrl: string;
  /** The order is no longer waiting (paid, or closed), or the buyer pressed 我已支付: show its result. */
  onDone: (order: Order) => void;
}

/**
 * WeChat Pay Native on a desktop: the code the channel gave, drawn here, with the time left to pay it. The order is
 * read every few seconds, so the page moves on by itself once the buyer has paid on the phone.
 */
export function QrPayPanel({ order, codeUrl, onDone }: QrPayPanelProps) {
  const countdown = useCountdown(order.expiresAt);
  const polled = useQuery({
    queryKey: paymentKeys.order(order.id),
    queryFn: () => fetchOrder(order.id),
    refetchInterval: countdown.over ? false : POLL_MS,
  });
  const settled = polled.data && polled.data.order.status !== 'pending' ? polled.data.order : null;
  useEffect(() => {
    if (settled) onDone(settled);
  }, [settled, onDone]);

  return (
    <section className="hf-pay-qr" aria-label={`${PAYMENT_CHANNEL_LABELS[order.channel]}扫码支付`}>
      <div className="hf-pay-qr-amount">{formatFen(order.amountFen)}</div>
      <div className="hf-pay-qr-plan">
        {order.planName} · {order.credits.toLocaleString('zh-CN')} 点算力
      </div>
      <QRCode
        value={codeUrl}
        size={200}
        status={countdown.over ? 'expired' : 'active'}
        statusRender={() => <span>二维码已过期</span>}
        aria-label="支付二维码"
      />
      {countdown.over ? (
        <Alert type="warning" showIcon title="订单已超时，请重新下单" />
      ) : (
        <p className="hf-pay-qr-hint">
          请使用{SCANNING_APPS[order.channel]}扫一扫完成支付，剩余 <strong>{countdown.text}</strong>
        </p>
      )}
      <p className="hf-muted">订单号 {order.id}</p>
      <Button type="primary" onClick={() => onDone(order)}>
        我已支付
      </Button>
    </section>
  );
}
