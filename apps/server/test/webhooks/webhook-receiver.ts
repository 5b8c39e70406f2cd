import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type Received = { headers: IncomingHttpHeaders; body: string; at: number };

/**
 * A webhook endpoint on 127.0.0.1: records every request and answers the statuses it is told, in turn (the last
 * one repeats), or 200 when told none. Told to hold, it records requests but answers none until released: a
 * receiver that is slow to answer, for as long as a test needs.
 */
export async function startReceiver() {
  const received: Received[] = [];
  let statuses: number[] = [];
  let holding = false;
  const held: (() => void)[] = [];
  const answer = (res: ServerResponse) => {
    const status = statuses.length > 1 ? statuses.shift()! : (statuses[0] ?? 200);
    res.writeHead(status, { 'content-type': 'text/plain' }).end(status >= 400 ? '出错了 '.repeat(100) : 'ok');
  };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), at: Date.now() });
      if (holding) held.push(() => answer(res));
      else answer(res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const release = () => {
    holding = false;
    for (const respond of held.splice(0)) respond();
  };
  return {
    url: `http://127.0.0.1:${port}/hook`,
    received,
    answer(next: number[]) {
      statuses = [...next];
    },
    /** From now on, requests wait for {@link release}. */
    hold() {
      holding = true;
    },
    /** How many requests are waiting for an answer. */
    get waiting() {
      return held.length;
    },
    /** Answers the held requests and stops holding. */
    release,
    /** The requests of one event type, in order of arrival. */
    of(type: string) {
      return received.filter((r) => (JSON.parse(r.body) as { type: string }).type === type);
    },
    close() {
      release();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
