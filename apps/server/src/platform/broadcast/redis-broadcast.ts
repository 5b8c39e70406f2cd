import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';
import { z } from 'zod';
import { type Broadcast, LocalBroadcast, type Topic } from './broadcast.js';

/** Redis channel of a topic: `huafang:bus:<topic>`; one pattern subscription hears them all. */
export const CHANNEL_PREFIX = 'huafang:bus:';
/** Where the processes that handled a message say so: `huafang:bus-ack:<publishing process>` (outside the pattern). */
const ACK_PREFIX = 'huafang:bus-ack:';
/** How long a publisher waits for every receiver's acknowledgement before it answers anyway (and logs it). */
export const ACK_TIMEOUT_MS = 2_000;

/** What goes over the wire, as JSON: the sending process, the message's own id (for the acknowledgements), the message. */
const envelopeSchema = z.object({
  origin: z.string().min(1).max(100),
  id: z.string().min(1).max(100),
  message: z.unknown(),
});
const ackSchema = z.string().min(1).max(100);

type Waiting = { acks: number; expected: number; done: () => void };

/**
 * {@link Broadcast} of scale-out mode over Redis pub/sub: PUBLISH on the command connection, PSUBSCRIBE on a
 * connection of its own (a subscribed connection can run no other command). The publisher's own handlers run at
 * once, before the message leaves.
 *
 * Handled everywhere before `publish` returns: PUBLISH answers how many subscribers received the message, each of
 * them acknowledges once its handlers have run, and `publish` waits for that many acknowledgements (at most
 * {@link ACK_TIMEOUT_MS}). So the answer to a logout reaches the user only after every API process has forgotten the
 * token, and the user's next request, whichever process it reaches, is refused.
 *
 * Pub/sub keeps nothing for a disconnected subscriber, so this class subscribes again after each reconnect, and both
 * the loss and the new subscription are reported as a gap.
 */
export class RedisBroadcast implements Broadcast {
  private readonly origin = randomUUID();
  private readonly local: LocalBroadcast;
  private readonly waiting = new Map<string, Waiting>();
  private subscribed = false;
  private closed = false;

  constructor(
    /** The command connection: PUBLISH must fail fast rather than wait through an outage. */
    private readonly publisher: Redis,
    /** A dedicated connection, made with `autoResubscribe: false` (this class subscribes again itself). */
    private readonly subscriber: Redis,
    private readonly log: FastifyBaseLogger,
  ) {
    this.local = new LocalBroadcast(log);
    subscriber.on('pmessage', (_pattern: string, channel: string, raw: string) => this.receive(channel, raw));
    subscriber.on('message', (channel: string, raw: string) => {
      if (channel === this.ackChannel) this.acknowledged(raw);
    });
    subscriber.on('ready', () => this.listen());
    subscriber.on('close', () => this.lost());
    if (subscriber.status === 'ready') this.listen();
  }

  get live(): boolean {
    return this.subscribed && this.subscriber.status === 'ready';
  }

  async publish<T>(topic: Topic<T>, message: T): Promise<void> {
    // A message that does not match its own topic is a programming error: refused here, not by every receiver.
    const checked = topic.schema.parse(message);
    this.local.deliver(topic.name, checked);
    const id = randomUUID();
    let done = () => {};
    const allAcknowledged = new Promise<void>((resolve) => {
      done = resolve;
    });
    // Registered before PUBLISH: an acknowledgement may be read before PUBLISH's own answer.
    const waiting: Waiting = { acks: 0, expected: Number.POSITIVE_INFINITY, done };
    this.waiting.set(id, waiting);
    let timer: NodeJS.Timeout | undefined;
    try {
      const envelope = JSON.stringify({ origin: this.origin, id, message: checked });
      const receivers = await this.publisher.publish(`${CHANNEL_PREFIX}${topic.name}`, envelope);
      // Without our own subscription no acknowledgement can reach us: the message is out, nothing to wait for.
      if (!this.live) return;
      waiting.expected = receivers;
      if (waiting.acks >= receivers) return;
      const timedOut = new Promise<boolean>((resolve) => {
        timer = setTimeout(() => resolve(true), ACK_TIMEOUT_MS);
      });
      if (await Promise.race([allAcknowledged.then(() => false), timedOut])) {
        this.log.warn(
          { topic: topic.name, receivers, acknowledged: waiting.acks },
          'broadcast not acknowledged by every API process in time; their caches expire on their own',
        );
      }
    } catch (err) {
      this.log.warn(
        { err: (err as Error).message, topic: topic.name },
        'broadcast not sent to the other API processes (Redis unreachable); their caches expire on their own',
      );
    } finally {
      clearTimeout(timer);
      this.waiting.delete(id);
    }
  }

  subscribe<T>(topic: Topic<T>, handler: (message: T) => void): void {
    this.local.subscribe(topic, handler);
  }

  onGap(handler: () => void): void {
    this.local.onGap(handler);
  }

  /** Resolves true once messages of other processes arrive (and PUBLISH can be sent), false after `timeoutMs`. */
  async untilLive(timeoutMs: number): Promise<boolean> {
    const ready = () => this.live && this.publisher.status === 'ready';
    const deadline = Date.now() + timeoutMs;
    while (!ready() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    return ready();
  }

  /** Stops reporting: the connections themselves are closed by their owner. */
  close(): void {
    this.closed = true;
    this.subscribed = false;
  }

  private get ackChannel(): string {
    return `${ACK_PREFIX}${this.origin}`;
  }

  private listen(): void {
    if (this.closed) return;
    Promise.all([this.subscriber.subscribe(this.ackChannel), this.subscriber.psubscribe(`${CHANNEL_PREFIX}*`)]).then(
      () => {
        if (this.closed) return;
        this.subscribed = true;
        // What was cached while messages could be missed goes; from here on every message arrives.
        this.local.gap();
        this.log.info('broadcast subscription open');
      },
      (err: Error) => this.log.warn({ err: err.message }, 'broadcast subscription failed; retried on reconnect'),
    );
  }

  private lost(): void {
    if (!this.subscribed) return;
    this.subscribed = false;
    this.local.gap();
    if (!this.closed) this.log.warn('broadcast subscription lost: caches of revocable data are off until it is back');
  }

  private receive(channel: string, raw: string): void {
    if (!channel.startsWith(CHANNEL_PREFIX)) return;
    let envelope: z.infer<typeof envelopeSchema>;
    try {
      envelope = envelopeSchema.parse(JSON.parse(raw));
    } catch {
      this.log.warn({ channel }, 'broadcast message refused: not a JSON envelope');
      return;
    }
    // Our own copy was handled before it was sent; it still counts as one of the receivers.
    if (envelope.origin === this.origin) {
      this.acknowledged(envelope.id);
      return;
    }
    this.local.deliver(channel.slice(CHANNEL_PREFIX.length), envelope.message);
    this.publisher.publish(`${ACK_PREFIX}${envelope.origin}`, envelope.id).catch(() => {
      // The publisher stops waiting after its timeout; the message itself was handled here.
    });
  }

  private acknowledged(raw: string): void {
    const id = ackSchema.safeParse(raw);
    const waiting = id.success ? this.waiting.get(id.data) : undefined;
    if (!waiting) return;
    waiting.acks += 1;
    if (waiting.acks >= waiting.expected) waiting.done();
  }
}
