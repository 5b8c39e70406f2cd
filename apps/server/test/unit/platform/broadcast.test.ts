import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { sessionsRevoked } from '../../../src/features/auth/session.service.js';
import { LocalBroadcast, topic } from '../../../src/platform/broadcast/broadcast.js';

const greeting = topic('test.greeting', z.strictObject({ name: z.string().min(1) }));
const other = topic('test.other', z.strictObject({}));

describe('in-process broadcast (embedded mode)', () => {
  it('runs every handler of the topic before publish returns, and no handler of another topic', async () => {
    const bus = new LocalBroadcast();
    const heard: string[] = [];
    bus.subscribe(greeting, (m) => heard.push(`a:${m.name}`));
    bus.subscribe(greeting, (m) => heard.push(`b:${m.name}`));
    bus.subscribe(other, () => heard.push('other'));
    const sent = bus.publish(greeting, { name: '小明' });
    // Delivered in the publisher's own call: a request that revokes sees its own process forget at once.
    expect(heard).toEqual(['a:小明', 'b:小明']);
    await sent;
    expect(bus.live).toBe(true);
  });

  it('refuses a message that does not match its topic, before any handler sees it', async () => {
    const bus = new LocalBroadcast();
    const heard: unknown[] = [];
    bus.subscribe(sessionsRevoked, (m) => heard.push(m));
    await expect(bus.publish(greeting, { name: '' })).rejects.toThrow();
    await expect(bus.publish(sessionsRevoked, { sessionId: 'a', userId: 'b' } as never)).rejects.toThrow();
    expect(heard).toEqual([]);
    // A copy from elsewhere (Redis) that does not match is dropped, not thrown into the subscriber.
    expect(bus.deliver(sessionsRevoked.name, { sessionId: 42 })).toBe(true);
    expect(bus.deliver('test.nobody-listens', {})).toBe(false);
    expect(heard).toEqual([]);
    await bus.publish(sessionsRevoked, { userId: 'u1' });
    expect(heard).toEqual([{ userId: 'u1' }]);
  });

  it('keeps delivering to the other handlers when one throws', async () => {
    const bus = new LocalBroadcast();
    const heard: string[] = [];
    bus.subscribe(greeting, () => {
      throw new Error('broken handler');
    });
    bus.subscribe(greeting, (m) => heard.push(m.name));
    const quiet = console.error;
    console.error = () => {};
    try {
      await bus.publish(greeting, { name: '小红' });
    } finally {
      console.error = quiet;
    }
    expect(heard).toEqual(['小红']);
  });

  it('tells gap handlers when messages may have been missed', () => {
    const bus = new LocalBroadcast();
    let gaps = 0;
    bus.onGap(() => {
      gaps += 1;
    });
    bus.gap();
    expect(gaps).toBe(1);
  });

  it('refuses two different topics under one name', () => {
    const bus = new LocalBroadcast();
    bus.subscribe(greeting, () => {});
    expect(() => bus.subscribe(topic('test.greeting', z.strictObject({})), () => {})).toThrow(/two topics/);
    expect(() => topic('Bad Name', z.strictObject({}))).toThrow();
  });
});
