import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export type Received = { headers: IncomingHttpHeaders; body: string; at: number };

/**
 * A webhook endpoint on 127.0.0.1: records every request and answers the statuses it is told, in turn (the last
 * one repeats), or 200 when told none.
 */
export async function startReceiver() {
  const received: Received[] = [];
  let statuses: number[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), at: Date.now() });
      const status = statuses.length > 1 ? statuses.shift()! : (statuses[0] ?? 200);
      res.writeHead(status, { 'content-type': 'text/plain' }).end(status >= 400 ? '出错了 '.repeat(100) : 'ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    received,
    answer(next: number[]) {
      statuses = [...next];
    },
    /** The requests of one event type, in order of arrival. */
    of(type: string) {
      return received.filter((r) => (JSON.parse(r.body) as { type: string }).type === type);
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
