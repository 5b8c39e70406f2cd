import type { FastifyBaseLogger } from 'fastify';
import { Redis } from 'ioredis';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { type ProcessPart, periodic, processParts, startParts } from '../../src/modes/process-parts.js';
import { scaleOutParts } from '../../src/modes/scale-out.js';
import { newId } from '../../src/platform/ids.js';
import { dropRedisKeys, redisUrl } from '../helpers/services.js';

const log = { error: vi.fn(), warn: vi.fn(), info: vi.fn() } as unknown as FastifyBaseLogger;

afterEach(() => {
  vi.useRealTimers();
});

describe('background parts of a process', () => {
  it('start in order and close in reverse order, once however often closed', async () => {
    const events: string[] = [];
    const part = (name: string): ProcessPart => ({
      name,
      start: () => void events.push(`start ${name}`),
      close: async () => void events.push(`close ${name}`),
    });
    const close = await startParts([part('pool'), part('queue'), part('sweep')]);
    await Promise.all([close(), close()]);
    expect(events).toEqual(['start pool', 'start queue', 'start sweep', 'close sweep', 'close queue', 'close pool']);
  });

  it('close the parts already started when a later one fails to start', async () => {
    const events: string[] = [];
    const failing: ProcessPart = {
      name: 'queue',
      start: () => Promise.reject(new Error('Redis is away')),
      close: () => void events.push('close queue'),
    };
    const pool: ProcessPart = { name: 'pool', start: () => undefined, close: () => void events.push('close pool') };
    await expect(startParts([pool, failing])).rejects.toThrow('Redis is away');
    expect(events).toEqual(['close pool']);
  });

  it('run a periodic task after its first delay, then every interval, only on the ticks this process claims', async () => {
    vi.useFakeTimers();
    const runs: number[] = [];
    let claims = 0;
    const sweep = periodic(
      'expired-sweep',
      { intervalMs: 1000, firstMs: 100 },
      async () => void runs.push(Date.now()),
      // Every other tick goes to another process.
      { claimTick: async () => claims++ % 2 === 0 },
      log,
    );
    const start = Date.now();
    sweep.start();
    await vi.advanceTimersByTimeAsync(99);
    expect(runs).toEqual([]);
    await vi.advanceTimersByTimeAsync(3001);
    expect(runs.map((at) => at - start)).toEqual([100, 2100]);
    sweep.close();
    await vi.advanceTimersByTimeAsync(5000);
    expect(runs).toHaveLength(2);
  });
});

describe('the parts of each role', () => {
  const services = (channels: number) =>
    ({ paymentChannels: { all: () => Array.from({ length: channels }) } }) as unknown as Parameters<
      typeof processParts
    >[0];
  const names = (role: 'api' | 'worker', channels: number) =>
    processParts(
      services(channels),
      { role, claimTick: async () => true } as never,
      { backendHealthMs: 1000 },
      log,
    ).map((part) => part.name);

  it('expire plan credits where jobs run, with or without a payment channel, and sweep payments only with one', () => {
    expect(names('worker', 0)).toContain('credit-expiry');
    expect(names('worker', 0)).not.toContain('payment-sweep');
    expect(names('worker', 1)).toEqual(expect.arrayContaining(['credit-expiry', 'payment-sweep']));
    expect(names('api', 1)).not.toContain('credit-expiry');
  });
});

describe('scale-out ticks', () => {
  it('give each tick of a periodic task to one worker only', async () => {
    const prefix = `hftest-${newId().replace(/[^a-z0-9]/gi, '')}`;
    const config = { ...loadConfig({}), redisPrefix: prefix };
    const client = new Redis(redisUrl);
    const connections = { client, subscriber: client, polls: client, probe: client };
    const [first, second] = [
      scaleOutParts(connections, 'worker', config),
      scaleOutParts(connections, 'worker', config),
    ];
    try {
      expect(await first.claimTick('audit-prune', 1500)).toBe(true);
      expect(await second.claimTick('audit-prune', 1500)).toBe(false);
      expect(await first.claimTick('audit-prune', 1500)).toBe(false);
      // Another task has ticks of its own.
      expect(await second.claimTick('expired-sweep', 1500)).toBe(true);
      // The claim lasts a little less than the tick: the next tick is free again.
      await new Promise((resolve) => setTimeout(resolve, 600));
      expect(await second.claimTick('audit-prune', 1500)).toBe(true);
    } finally {
      await first.leases?.close();
      await second.leases?.close();
      await dropRedisKeys(redisUrl, prefix);
      client.disconnect();
    }
  });
});
