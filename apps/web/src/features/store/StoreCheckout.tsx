import { type ComboPlan, formatFen, type PayChannelInfo, type PaymentChannelName } from '@huafang/contracts';
import { Alert, Button, Radio } from 'antd';
import { useState } from 'react';
import { SubmitError } from '../../common/SubmitError';
import { channelsFor } from '../payments/pay-state';
import type { useCheckout } from '../payments/use-checkout';
import { usePayDevice } from '../payments/use-pay-device';

interface StoreCheckoutProps {
  plan: ComboPlan;
  channels: PayChannelInfo[];
  checkout: ReturnType<typeof useCheckout>;
  onBack: () => void;
}

/** One plan's checkout: what it costs and brings, the channels this device can pay with, and 立即支付. */
export function StoreCheckout({ plan, channels, checkout, onBack }: StoreCheckoutProps) {
  const device = usePayDevice();
  const usable = channelsFor(channels, device);
  const [channel, setChannel] = useState<PaymentChannelName | undefined>(usable[0]?.name);

  const pay = () => {
    const chosen = usable.find((item) => item.name === channel);
    if (chosen) void checkout.pay({ planId: plan.id, channel: chosen.name }, device);
  };

  return (
    <div className="hf-pay-checkout">
      <div className="hf-pay-checkout-summary">
        <strong>{plan.name}</strong>
        <span>含 {plan.credits.toLocaleString('zh-CN')} 点算力</span>
        <span className="hf-pay-qr-amount">{formatFen(plan.priceFen)}</span>
      </div>
      {usable.length > 0 ? (
        <Radio.Group
          className="hf-pay-channels"
          aria-label="支付方式"
          value={channel}
          onChange={(event) => setChannel(event.target.value as PaymentChannelName)}
          optionType="button"
          buttonStyle="solid"
          options={usable.map((item) => ({ label: item.label, value: item.name }))}
        />
      ) : (
        <Alert
          type="info"
          showIcon
          title={
            device === 'wechat'
              ? '微信里暂不能在线支付：请点右上角「…」，选择「在浏览器打开」后购买'
              : '当前设备暂不支持在线支付，请在电脑上购买或联系管理员'
          }
        />
      )}
      <SubmitError error={checkout.error} />
      <div className="hf-pay-actions">
        <Button onClick={onBack}>返回套餐</Button>
        <Button type="primary" disabled={!channel} loading={checkout.submitting} onClick={pay}>
          立即支付 {formatFen(plan.priceFen)}
        </Button>
      </div>
    </div>
  );
}
