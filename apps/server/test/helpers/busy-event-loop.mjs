// A test's tool, loaded with `node --import` into a process under test: the main thread's event loop is busy
// BUSY_EVENT_LOOP_MS (200 by default) at a time, again and again, as under a long synchronous step. A signal then
// waits behind the busy stretch, as it would in production; the process's threads are left alone.
import { isMainThread } from 'node:worker_threads';

const busyMs = Number(process.env.BUSY_EVENT_LOOP_MS ?? 200);

if (isMainThread) {
  setInterval(() => {
    const until = Date.now() + busyMs;
    while (Date.now() < until) {
      // Busy on purpose.
    }
  }, busyMs / 2).unref();
  console.log(`busy-event-loop: the event loop is busy ${busyMs} ms at a time`);
}
