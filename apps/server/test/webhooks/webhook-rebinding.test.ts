import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Resolver, WebhookAddressRules } from '../../src/features/webhooks/webhook-address.js';
import { sendWebhook, webhookAgent } from '../../src/features/webhooks/webhook-client.js';
import { startReceiver } from './webhook-receiver.js';

const MESSAGE = { eventId: 'msg_rebind', payload: '{"type":"webhook.test"}' };
const SECRET = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;

describe('webhook connections and DNS rebinding', () => {
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  beforeAll(async () => {
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await receiver.close();
  });

  /** Sends once to `rebind.test` on the receiver's port, the name resolved by `resolve`. */
  const send = async (allowPrivate: boolean, resolve: Resolver) => {
    const rules = new WebhookAddressRules({ allowHttp: true, allowPrivate }, resolve);
    const agent = webhookAgent(rules);
    try {
      const url = `http://rebind.test:${new URL(receiver.url).port}/hook`;
      return await sendWebhook({ url, secret: SECRET }, MESSAGE, { timeoutMs: 1000, rules, dispatcher: agent });
    } finally {
      await agent.destroy();
    }
  };

  it('connects to the address the name was resolved to, with the name as Host', async () => {
    const result = await send(true, async () => [{ address: '127.0.0.1', family: 4 }]);
    expect(result).toMatchObject({ success: true, statusCode: 200, error: null });
    expect(receiver.received).toHaveLength(1);
    expect(receiver.received[0]!.headers.host).toBe(`rebind.test:${new URL(receiver.url).port}`);
    receiver.received.length = 0;
  });

  it('never connects to 127.0.0.1 when the name answers a public address first and 127.0.0.1 after', async () => {
    // A rebinding name: public at the first lookup, loopback at every one after it.
    const answers: string[] = [];
    const rebinding: Resolver = async () => {
      const address = answers.length === 0 ? '8.8.8.8' : '127.0.0.1';
      answers.push(address);
      return [{ address, family: 4 }];
    };
    // One lookup, checked, and the connection goes to its public answer (which does not answer here in a second).
    const first = await send(false, rebinding);
    expect(answers).toEqual(['8.8.8.8']);
    expect(first).toMatchObject({ success: false, statusCode: null });
    expect(first.error).not.toBe('接收地址解析到内网或本机地址，已拒绝发送');
    // The next connection's lookup answers 127.0.0.1: refused before connecting.
    const second = await send(false, rebinding);
    expect(answers).toEqual(['8.8.8.8', '127.0.0.1']);
    expect(second).toMatchObject({
      success: false,
      statusCode: null,
      error: '接收地址解析到内网或本机地址，已拒绝发送',
    });
    expect(receiver.received).toEqual([]);
  });
});
