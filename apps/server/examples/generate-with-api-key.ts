// 用个人 API 密钥生成图片：提交生成 → 等待 Webhook（或轮询进度）→ 下载原图。
// 运行：HUAFANG_URL=https://画坊地址 HUAFANG_API_KEY=hf_… npx tsx generate-with-api-key.ts
// 需要 Node.js ≥ 20；接收 Webhook 时还需要 npm 包 standardwebhooks（用来验证签名）。
import { mkdir, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import path from 'node:path';
import { Webhook } from 'standardwebhooks';

export type GenerateOptions = {
  /** 画坊的地址，如 https://huafang.example.com */
  baseUrl: string;
  /** 个人 API 密钥（hf_…），需要 generate 权限 */
  apiKey: string;
  /** 英文提示词 */
  prompt: string;
  /** 原图保存到的目录 */
  outDir: string;
  /** 生成参数（宽、高、步数、张数、种子……），不给就用下面的默认值 */
  parameters?: Record<string, number>;
  /** 给了就在这个端口等待 Webhook（须已在画坊登记 http(s)://本机:端口/ 与其签名密钥）；不给就轮询进度 */
  webhook?: { port: number; secret: string };
};

export type GenerateOutcome = {
  generateId: string;
  status: string;
  files: string[];
  /** 收到并验证过签名的 Webhook 事件（轮询时为 null） */
  event: { id: string; type: string; data: { generateId: string; images: { url: string }[] } } | null;
};

type Envelope<T> = { code: number; msg: string; data: T };

/** 每个 /api 应答都是 {code, msg, data}：code 为 0 才成功，msg 是给人看的中文说明。 */
async function call<T>(options: GenerateOptions, method: string, url: string, body?: unknown): Promise<T> {
  const res = await fetch(new URL(url, options.baseUrl), {
    method,
    headers: { authorization: `Bearer ${options.apiKey}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const envelope = (await res.json()) as Envelope<T>;
  if (envelope.code !== 0) throw new Error(`${method} ${url} 失败（HTTP ${res.status}）：${envelope.msg}`);
  return envelope.data;
}

type GenerationEvent = NonNullable<GenerateOutcome['event']>;

/** 在 port 上接收 Webhook：每个请求先验证签名，生成事件按 generateId 留存，供 next() 取用。 */
async function startReceiver(port: number, secret: string) {
  const verifier = new Webhook(secret);
  const arrived = new Map<string, GenerationEvent>();
  const waiting = new Map<string, (event: GenerationEvent) => void>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      let event: Omit<GenerationEvent, 'id'>;
      try {
        // 验证签名与时间戳（前后 5 分钟内），不对就抛出异常；签名覆盖 webhook-id、时间戳与原始请求体。
        event = verifier.verify(Buffer.concat(chunks), req.headers as Record<string, string>) as typeof event;
      } catch {
        res.writeHead(400).end();
        return;
      }
      // 尽快回答 2xx，否则画坊会当作失败并稍后重试；重试的 webhook-id 不变，可用来去重。
      res.writeHead(204).end();
      if (!event.type.startsWith('generation.')) return;
      const received = { id: String(req.headers['webhook-id']), ...event };
      const waiter = waiting.get(received.data.generateId);
      if (waiter) waiter(received);
      else arrived.set(received.data.generateId, received);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, resolve);
  });
  return {
    next(generateId: string): Promise<GenerationEvent> {
      const early = arrived.get(generateId);
      return early ? Promise.resolve(early) : new Promise((resolve) => waiting.set(generateId, resolve));
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** 没有 Webhook 时：每 2 秒查一次进度，直到不再是排队中或生成中。 */
async function pollUntilDone(options: GenerateOptions, generateId: string) {
  for (;;) {
    const progress = await call<{ status: string; message: string | null; images: { url: string }[] }>(
      options,
      'POST',
      '/api/generate/task/progress',
      { generateId },
    );
    if (progress.status !== 'queued' && progress.status !== 'running') return progress;
    await new Promise((resolve) => setTimeout(resolve, 2000));
  }
}

export async function generateWithApiKey(options: GenerateOptions): Promise<GenerateOutcome> {
  // 先开始接收再提交：生成很快时，事件可能比提交的应答先到。
  const receiver = options.webhook ? await startReceiver(options.webhook.port, options.webhook.secret) : null;
  try {
    // 1. 提交：自由创作（templateId 为 null），一组提示词与参数。
    const { generateId } = await call<{ generateId: string }>(options, 'POST', '/api/generate/task', {
      templateId: null,
      promptGroup: [{ id: 'p1', groupName: options.prompt, promptText: options.prompt, custom: '1' }],
      parameters: options.parameters ?? { width: 512, height: 512, steps: 20, batchSize: 2 },
    });

    // 2. 等待结束：Webhook，或者轮询进度。
    let status: string;
    let urls: string[];
    let event: GenerateOutcome['event'] = null;
    if (receiver) {
      event = await receiver.next(generateId);
      status = event.type === 'generation.succeeded' ? 'succeeded' : 'failed';
      urls = event.data.images.map((image) => image.url);
    } else {
      const final = await pollUntilDone(options, generateId);
      status = final.status;
      urls = final.images.map((image) => image.url);
    }

    // 3. 下载原图：链接是站内相对地址，已带签名（有效期见 WORK_URL_TTL_HOURS），不需要再带密钥。
    await mkdir(options.outDir, { recursive: true });
    const files: string[] = [];
    for (const [index, url] of urls.entries()) {
      const res = await fetch(new URL(url, options.baseUrl));
      if (!res.ok) throw new Error(`下载 ${url} 失败：HTTP ${res.status}`);
      const file = path.join(options.outDir, `${generateId}-${index + 1}.png`);
      await writeFile(file, Buffer.from(await res.arrayBuffer()));
      files.push(file);
    }
    return { generateId, status, files, event };
  } finally {
    await receiver?.close();
  }
}

// 直接运行本文件时：从环境变量读取参数。
if (import.meta.url === `file://${process.argv[1]}`) {
  const outcome = await generateWithApiKey({
    baseUrl: process.env.HUAFANG_URL ?? 'http://localhost:3000',
    apiKey: process.env.HUAFANG_API_KEY ?? '',
    prompt: process.env.HUAFANG_PROMPT ?? 'mountains, river, ink wash',
    outDir: process.env.HUAFANG_OUT_DIR ?? './huafang-images',
    ...(process.env.HUAFANG_WEBHOOK_PORT && process.env.HUAFANG_WEBHOOK_SECRET
      ? { webhook: { port: Number(process.env.HUAFANG_WEBHOOK_PORT), secret: process.env.HUAFANG_WEBHOOK_SECRET } }
      : {}),
  });
  console.log(`生成 ${outcome.generateId}：${outcome.status}，已保存 ${outcome.files.length} 张图片`);
  for (const file of outcome.files) console.log(`  ${file}`);
}
