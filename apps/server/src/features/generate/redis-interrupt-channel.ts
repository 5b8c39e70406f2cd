import type { Redis } from 'ioredis';
import { INTERRUPT_HOLD_MS, type InterruptChannel, LocalInterruptChannel } from './interrupt-channel.js';

/**
 * Scale-out mode: an interrupt received by any API process is published to every worker; the one running the
 * job stops it. A mark kept in Redis for a while catches a job that starts watching just after the message.
 */
export class RedisInterruptChannel implements InterruptChannel {
  private readonly local = new LocalInterruptChannel();
  private readonly channel: string;

  constructor(
    private readonly redis: Redis,
    private readonly subscriber: Redis,
    private readonly prefix: string,
    /** Only processes that run jobs listen (scale-out workers). */
    private readonly listens: boolean,
  ) {
    this.channel = `${prefix}:interrupt`;
  }

  private markKey(jobId: string): string {
    return `${this.prefix}:interrupted:${jobId}`;
  }

  async start(): Promise<void> {
    if (!this.listens) return;
    this.subscriber.on('message', (channel: string, jobId: string) => {
      if (channel === this.channel) this.local.deliver(jobId);
    });
    await this.subscriber.subscribe(this.channel);
  }

  async watch(jobId: string, controller: AbortController): Promise<() => void> {
    const unwatch = await this.local.watch(jobId, controller);
    if (await this.redis.get(this.markKey(jobId))) this.local.deliver(jobId);
    return unwatch;
  }

  async interrupt(jobId: string): Promise<void> {
    await this.redis.set(this.markKey(jobId), '1', 'PX', INTERRUPT_HOLD_MS);
    await this.redis.publish(this.channel, jobId);
  }

  async close(): Promise<void> {
    await this.local.close();
  }
}
