import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';

/**
 * Messages of a few Redis channels for in-memory mirrors of Redis values (scale-out API processes): the writer of
 * a value publishes it in the same MULTI as the write, so a live subscription hears every write in Redis's order.
 *
 * Pub/sub keeps nothing for a disconnected subscriber: while the subscription is not `live` a mirror must read
 * Redis instead, and each loss and each new subscription moves `epoch` on and runs the gap handlers (a mirror
 * drops what it holds). A read made in one epoch may be kept only if the epoch has not moved by its answer.
 *
 * `sync` makes a mirror as current as a read of Redis: Redis answers a connection in order, so once it answered a
 * PING sent after the call, every message published before the call has been handled. A frozen or unreachable
 * Redis fails it as it fails a read (the connection's command timeout), so requests answer 503 as before.
 */
export class RedisFeed {
  private readonly handlers = new Map<string, (message: string) => void>();
  private readonly gapHandlers: (() => void)[] = [];
  private subscribed = false;
  private closed = false;
  /** The PING the calls of this turn of the event loop share, sent once they are all in. */
  private pending: Promise<void> | null = null;
  /** Moves on at every loss and every new subscription. */
  epoch = 0;

  constructor(
    /** A dedicated connection, made with `autoResubscribe: false` (this class subscribes again itself). */
    private readonly subscriber: Redis,
    /** Every channel, subscribed from the start: a handler may come later (messages before it are dropped). */
    private readonly channels: string[],
    private readonly log: FastifyBaseLogger,
  ) {
    subscriber.on('message', (channel: string, message: string) => this.handlers.get(channel)?.(message));
    subscriber.on('ready', () => this.subscribe());
    subscriber.on('close', () => this.lost());
    if (subscriber.status === 'ready') this.subscribe();
  }

  get live(): boolean {
    return this.subscribed && this.subscriber.status === 'ready';
  }

  /** Resolves once the messages published before the call are handled (one PING for all calls of a turn). */
  sync(): Promise<void> {
    this.pending ??= new Promise<void>((resolve, reject) => {
      setImmediate(() => {
        this.pending = null;
        this.subscriber.ping().then(() => resolve(), reject);
      });
    });
    return this.pending;
  }

  /** One handler per channel. */
  handle(channel: string, handler: (message: string) => void): void {
    this.handlers.set(channel, handler);
  }

  onGap(handler: () => void): void {
    this.gapHandlers.push(handler);
  }

  close(): void {
    this.closed = true;
    this.subscribed = false;
    this.gap();
  }

  private subscribe(): void {
    if (this.closed) return;
    this.subscriber.subscribe(...this.channels).then(
      () => {
        if (this.closed) return;
        this.subscribed = true;
        this.gap();
        this.log.info('progress feed open');
      },
      (err: Error) => this.log.warn({ err: err.message }, 'progress feed subscription failed; retried on reconnect'),
    );
  }

  private lost(): void {
    if (!this.subscribed) return;
    this.subscribed = false;
    this.gap();
    if (!this.closed) this.log.warn('progress feed lost: polls read Redis until it is back');
  }

  private gap(): void {
    this.epoch += 1;
    for (const handler of this.gapHandlers) handler();
  }
}
