import { type ProviderServer, startProviderServer } from './provider-double.js';

/**
 * An OpenAI-compatible chat-completions server (what DeepSeek, DashScope's compatible mode, vLLM and Ollama speak):
 * POST {base}/chat/completions with a Bearer key, answering the documented `chat.completion` object, or an error
 * object with its HTTP status. The test says what the assistant answers to each request.
 */

export type ChatMessage = { role: 'system' | 'user' | 'assistant'; content: string };
export type ChatRequest = { model: string; messages: ChatMessage[]; temperature?: number; authorization?: string };
/** What the next request gets instead of an answer: a 500 error object, or no answer at all. */
export type ChatFailure = 'error' | 'hang';

export type OpenAiChatDouble = ProviderServer & {
  /** The base URL a client is configured with: {url}/v1. */
  baseUrl: string;
  requests: ChatRequest[];
  /** The assistant's reply to a request (by default: a JSON array echoing each phrase in brackets). */
  reply: (request: ChatRequest) => string;
  failNext(failure: ChatFailure): void;
};

const echo = (request: ChatRequest) => {
  const user = request.messages.find((m) => m.role === 'user')?.content ?? '[]';
  return JSON.stringify((JSON.parse(user) as string[]).map((phrase) => `[${phrase}]`));
};

export async function startOpenAiChatDouble(
  options: { apiKey?: string; model?: string } = {},
): Promise<OpenAiChatDouble> {
  const failures: ChatFailure[] = [];
  const double = {
    requests: [] as ChatRequest[],
    reply: echo,
    failNext(failure: ChatFailure) {
      failures.push(failure);
    },
  };
  const json = (res: import('node:http').ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  const server = await startProviderServer((req, res, body) => {
    if (req.method !== 'POST' || req.url !== '/v1/chat/completions') {
      json(res, 404, {
        error: {
          message: `Unknown request URL: ${req.method} ${req.url}`,
          type: 'invalid_request_error',
          code: 'unknown_url',
        },
      });
      return;
    }
    if (options.apiKey && req.headers.authorization !== `Bearer ${options.apiKey}`) {
      json(res, 401, {
        error: { message: 'Incorrect API key provided', type: 'invalid_request_error', code: 'invalid_api_key' },
      });
      return;
    }
    const request = JSON.parse(body.toString('utf8')) as ChatRequest;
    if (options.model && request.model !== options.model) {
      json(res, 404, {
        error: {
          message: `The model \`${request.model}\` does not exist`,
          type: 'invalid_request_error',
          code: 'model_not_found',
        },
      });
      return;
    }
    double.requests.push({ ...request, authorization: req.headers.authorization });
    const failure = failures.shift();
    if (failure === 'hang') return;
    if (failure === 'error') {
      json(res, 500, {
        error: { message: 'The server had an error while processing your request', type: 'server_error', code: null },
      });
      return;
    }
    const content = double.reply(request);
    json(res, 200, {
      id: `chatcmpl-${double.requests.length}`,
      object: 'chat.completion',
      created: Math.floor(Date.now() / 1000),
      model: request.model,
      choices: [
        { index: 0, message: { role: 'assistant', content, refusal: null }, logprobs: null, finish_reason: 'stop' },
      ],
      usage: { prompt_tokens: 20, completion_tokens: 10, total_tokens: 30 },
    });
  });
  return Object.assign(double, server, { baseUrl: `${server.url}/v1` });
}
