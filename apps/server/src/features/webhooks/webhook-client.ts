import { Webhook } from 'standardwebhooks';
import { Agent, type Dispatcher, fetch, type Response } from 'undici';
import { explainNetworkError } from '../../platform/network-error.js';
import { type WebhookAddressRules, WebhookRefusal } from './webhook-address.js';

/** Characters of an endpoint's answer kept in the delivery log: enough to read an error, never a whole page. */
const EXCERPT_CHARS = 200;
const USER_AGENT = 'Huafang-Webhooks/1.0';

export type WebhookMessage = { eventId: string; payload: string };
export type WebhookTarget = { url: string; secret: string };
export type WebhookTry = {
  success: boolean;
  statusCode: number | null;
  error: string | null;
  responseExcerpt: string | null;
  durationMs: number;
};

/** The first characters of a body, reading no further than that (an endpoint may answer with a huge page). */
async function excerptOf(res: Response): Promise<string | null> {
  if (!res.body) return null;
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  let text = '';
  try {
    while (text.length < EXCERPT_CHARS) {
      const { done, value } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
    }
  } finally {
    await reader.cancel().catch(() => {});
  }
  return text.slice(0, EXCERPT_CHARS) || null;
}

function reasonOf(err: unknown, timeoutMs: number): string {
  if (err instanceof Error && (err.name === 'TimeoutError' || err.name === 'AbortError')) {
    return `接收地址在 ${Math.round(timeoutMs / 1000)} 秒内没有应答`;
  }
  const cause = err instanceof Error ? err.cause : undefined;
  if (cause instanceof WebhookRefusal) return cause.message;
  return `无法连接接收地址：${explainNetworkError(err)}`;
}

/**
 * The connections webhooks go out on: each resolves the receiver's name once and connects only to the addresses
 * that passed the rules (TLS SNI and Host stay the name). Close it when no more sends will be made.
 */
export const webhookAgent = (rules: WebhookAddressRules): Agent => new Agent({ connect: { lookup: rules.lookup } });

/**
 * One signed POST of a webhook message (Standard Webhooks: webhook-id, webhook-timestamp, webhook-signature over
 * `id.timestamp.body`). Redirects are not followed: a 3xx counts as a failure, so a public address cannot bounce
 * the request into the private network. Any 2xx is success.
 */
export async function sendWebhook(
  target: WebhookTarget,
  message: WebhookMessage,
  options: { timeoutMs: number; rules: WebhookAddressRules; dispatcher: Dispatcher },
): Promise<WebhookTry> {
  const started = Date.now();
  const took = () => Date.now() - started;
  const refusal = options.rules.refusal(target.url);
  if (refusal) return { success: false, statusCode: null, error: refusal, responseExcerpt: null, durationMs: took() };
  const timestamp = new Date();
  try {
    const res = await fetch(target.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'user-agent': USER_AGENT,
        'webhook-id': message.eventId,
        'webhook-timestamp': String(Math.floor(timestamp.getTime() / 1000)),
        'webhook-signature': new Webhook(target.secret).sign(message.eventId, timestamp, message.payload),
      },
      body: message.payload,
      redirect: 'manual',
      dispatcher: options.dispatcher,
      signal: AbortSignal.timeout(options.timeoutMs),
    });
    const responseExcerpt = await excerptOf(res).catch(() => null);
    const success = res.status >= 200 && res.status < 300;
    return {
      success,
      statusCode: res.status,
      error: success ? null : `接收地址应答 HTTP ${res.status}`,
      responseExcerpt,
      durationMs: took(),
    };
  } catch (err) {
    return {
      success: false,
      statusCode: null,
      error: reasonOf(err, options.timeoutMs),
      responseExcerpt: null,
      durationMs: took(),
    };
  }
}
