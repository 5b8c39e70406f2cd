import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ModerationGatewayConfig, SmsGatewayConfig } from '../../src/config.js';

/**
 * The HTTP side every provider double shares (Aliyun and Tencent SMS and moderation, the A1111 engine): a server on
 * 127.0.0.1 at a free port that hands the double each request with its whole body, and the failures a provider
 * shows without answering in its own format.
 */

export type ProviderHandler = (req: IncomingMessage, res: ServerResponse, body: Buffer) => void | Promise<void>;

export type ProviderServer = {
  /** For SMS_ENDPOINT, MODERATION_ENDPOINT or a backend's address: http://127.0.0.1:port. */
  url: string;
  /** Stops listening and drops the open connections, a hanging request's included. */
  close(): Promise<void>;
};

/** What a test reads from every provider double. */
export type ProviderDouble<Account, Call> = ProviderServer & {
  account: Account;
  /** Calls that passed the gateway's checks (key, signature, action, version, parameters), in arrival order. */
  requests: Call[];
  /** `Code: reason` of each call the gateway refused before that; empty when the SDK signs right. */
  rejections: string[];
};

/** An SMS gateway's double: what it delivered, and the failure its next SendSms plays instead. */
export type SmsDouble<Account, Call, Failure> = ProviderDouble<Account, Call> & {
  /** The server's SMS settings (but the timeout) that reach this double with its account. */
  settings: Omit<SmsGatewayConfig, 'timeoutMs'>;
  /** The code of the newest message actually sent to this mobile (11 digits, without +86). */
  lastCodeTo(mobile: string): string | undefined;
  failNext(failure: Failure): void;
};

type ModerationGatewaySettings = Omit<ModerationGatewayConfig, 'timeoutMs'>;

/** A content-safety service's double: the next answer of an action, set by the test. */
export type ModerationDouble<Account, Call, Action extends string, Answer> = ProviderDouble<Account, Call> & {
  /** The server's moderation settings (but the timeout) that reach this double with its account. */
  settings: ModerationGatewaySettings;
  answerNext(action: Action, answer: Answer): void;
  /** Forgets queued answers (a test that failed half-way leaves none for the next). */
  reset(): void;
};

/** The answers a test queued per action, taken one a call. */
export function answerQueues<Action extends string, Answer>() {
  const queued = new Map<Action, Answer[]>();
  return {
    next: (action: Action) => queued.get(action)?.shift(),
    answerNext(action: Action, answer: Answer) {
      queued.set(action, [...(queued.get(action) ?? []), answer]);
    },
    reset() {
      queued.clear();
    },
  };
}

/**
 * What a moderation double keeps apart from its protocol: the calls it took, the calls it refused and the answers a
 * test queued; `serve` starts it on the double's handler and hands the test the double.
 */
export function moderationRecord<Account, Call, Action extends string, Answer>() {
  const requests: Call[] = [];
  const rejections: string[] = [];
  const queued = answerQueues<Action, Answer>();
  return {
    requests,
    rejections,
    next: queued.next,
    async serve(
      handle: ProviderHandler,
      account: Account,
      settings: (url: string) => ModerationGatewaySettings,
    ): Promise<ModerationDouble<Account, Call, Action, Answer>> {
      const server = await startProviderServer(handle);
      const { answerNext, reset } = queued;
      return { ...server, account, settings: settings(server.url), requests, rejections, answerNext, reset };
    },
  };
}

/** A request header as one string ('' when absent). */
export const header = (req: IncomingMessage, name: string) => {
  const value = req.headers[name];
  return typeof value === 'string' ? value : '';
};

export async function startProviderServer(handle: ProviderHandler): Promise<ProviderServer> {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      // A double that breaks answers 500 with the reason, rather than taking the test process down.
      Promise.resolve()
        .then(() => handle(req, res, Buffer.concat(chunks)))
        .catch((err: unknown) => {
          res.writeHead(500, { 'content-type': 'text/plain' });
          res.end(String(err));
        });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/**
 * What a provider can do instead of answering: nothing at all (`hang`), drop the connection (`reset`), or leave the
 * answer to the HTML error page of a proxy in front of it that is down.
 */
export type TransportFailure = 'hang' | 'reset' | 'html-500' | 'html-502' | 'http-502';

const PAGES: Record<Exclude<TransportFailure, 'hang' | 'reset'>, string> = {
  'html-500': '500 Internal Server Error',
  'html-502': '502 Bad Gateway',
  'http-502': '502 Bad Gateway',
};

const isTransportFailure = (failure: unknown): failure is TransportFailure =>
  failure === 'hang' || failure === 'reset' || (typeof failure === 'string' && Object.hasOwn(PAGES, failure));

/** Plays `failure` when it is a transport failure, and says whether it did (the call then has its answer, or none). */
export function playTransportFailure<Failure>(
  req: IncomingMessage,
  res: ServerResponse,
  failure: Failure,
): failure is Extract<Failure, TransportFailure> {
  if (!isTransportFailure(failure)) return false;
  if (failure === 'hang') return true;
  if (failure === 'reset') {
    req.socket.destroy();
    return true;
  }
  const page = PAGES[failure];
  res.writeHead(Number(page.slice(0, 3)), { 'content-type': 'text/html' });
  res.end(`<html><body><h1>${page}</h1></body></html>`);
  return true;
}
