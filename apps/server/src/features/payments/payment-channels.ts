import { PAYMENT_CHANNEL_LABELS, type PayChannelInfo } from '@huafang/contracts';
import type { PaymentsConfig } from '../../config.js';
import { AlipayChannel } from './alipay-channel.js';
import type { PaymentChannel } from './payment-channel.js';

/** The channels configured, by name, built once from the configuration; none when payment is off. */
export class PaymentChannels {
  private readonly byName = new Map<string, PaymentChannel>();

  constructor(channels: PaymentChannel[]) {
    for (const channel of channels) {
      if (this.byName.has(channel.name)) throw new Error(`payment channel ${channel.name} registered twice`);
      this.byName.set(channel.name, channel);
    }
  }

  get(name: string): PaymentChannel | undefined {
    return this.byName.get(name);
  }

  all(): PaymentChannel[] {
    return [...this.byName.values()];
  }

  /** What 套餐商店 offers: each configured channel with its Chinese name and the devices it takes. */
  info(): PayChannelInfo[] {
    return this.all().map((channel) => ({
      name: channel.name,
      label: PAYMENT_CHANNEL_LABELS[channel.name],
      devices: [...channel.devices],
    }));
  }
}

/** Notifications come to PUBLIC_BASE_URL/api/pay/notify/<channel> (docs/payments.md § 通知地址). */
export function notifyUrl(publicBaseUrl: string, channel: string): string {
  return `${publicBaseUrl}/api/pay/notify/${channel}`;
}

export function createPaymentChannels(config: PaymentsConfig): PaymentChannels {
  const channels: PaymentChannel[] = [];
  // config.ts refuses an enabled channel without PUBLIC_BASE_URL, so it is set whenever a channel is.
  const base = config.publicBaseUrl ?? '';
  if (config.alipay) channels.push(new AlipayChannel(config.alipay, notifyUrl(base, 'alipay')));
  return new PaymentChannels(channels);
}
