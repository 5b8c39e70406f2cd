import type { FastifyBaseLogger } from 'fastify';
import type { z } from 'zod';

/** A named kind of message and the zod schema every copy of it is checked against before a handler sees it. */
export type Topic<T> = { readonly name: string; readonly schema: z.ZodType<T> };

export function topic<T>(name: string, schema: z.ZodType<T>): Topic<T> {
  if (!/^[a-z][a-z0-9.-]*$/.test(name)) throw new Error(`topic name must be lower-case dotted words: ${name}`);
  return { name, schema };
}

/**
 * Notices to every API process: "this changed, drop what you remember of it" (session revocations, library edits).
 * Embedded mode has one process and delivers in it; scale-out delivers through Redis pub/sub. Delivery is at most
 * once: a process that may have missed messages (its Redis subscription dropped) is told so through `onGap`, and
 * while `live` is false it must not keep anything it would need a message to forget.
 */
export interface Broadcast {
  /**
   * Runs this process's handlers before it returns, then hands the message to the other processes. Never throws
   * for a Redis outage (the change itself is already in the database): it is logged, and the other processes'
   * caches stay as long as their own time limit allows.
   */
  publish<T>(topic: Topic<T>, message: T): Promise<void>;
  subscribe<T>(topic: Topic<T>, handler: (message: T) => void): void;
  /** The handler runs whenever messages may have been lost: a cache that depends on them drops everything. */
  onGap(handler: () => void): void;
  /** False while messages of other processes could be missed: caches read the database without keeping it. */
  readonly live: boolean;
}

type Subscription = { topic: Topic<unknown>; handlers: ((message: unknown) => void)[] };

/** One process: handlers run at once, in the publisher's call. Also the local delivery of {@link RedisBroadcast}. */
export class LocalBroadcast implements Broadcast {
  private readonly topics = new Map<string, Subscription>();
  private readonly gapHandlers: (() => void)[] = [];
  readonly live: boolean = true;

  constructor(private readonly log?: FastifyBaseLogger) {}

  async publish<T>(topic: Topic<T>, message: T): Promise<void> {
    // A message that does not match its own topic is a programming error of the publisher.
    this.deliver(topic.name, topic.schema.parse(message));
  }

  subscribe<T>(topic: Topic<T>, handler: (message: T) => void): void {
    const known = this.topics.get(topic.name);
    if (known && known.topic !== topic) throw new Error(`two topics are named ${topic.name}`);
    const subscription = known ?? { topic: topic as Topic<unknown>, handlers: [] };
    subscription.handlers.push(handler as (message: unknown) => void);
    this.topics.set(topic.name, subscription);
  }

  onGap(handler: () => void): void {
    this.gapHandlers.push(handler);
  }

  /** Checks the message against its topic and runs the handlers; false when nobody here knows the topic. */
  deliver(name: string, message: unknown): boolean {
    const subscription = this.topics.get(name);
    if (!subscription) return false;
    const parsed = subscription.topic.schema.safeParse(message);
    if (!parsed.success) {
      this.log?.warn({ topic: name, issues: parsed.error.issues }, 'broadcast message refused: it does not match');
      return true;
    }
    for (const handler of subscription.handlers) this.run(() => handler(parsed.data), name);
    return true;
  }

  gap(): void {
    for (const handler of this.gapHandlers) this.run(handler, 'gap');
  }

  /** One failing handler must not keep the others (or the publisher's request) from going on. */
  private run(handler: () => void, what: string): void {
    try {
      handler();
    } catch (err) {
      if (this.log) this.log.error({ err, topic: what }, 'broadcast handler failed');
      else console.error(`broadcast handler of ${what} failed`, err);
    }
  }
}
