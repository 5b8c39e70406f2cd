import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { type OpenAiChatDouble, startOpenAiChatDouble } from '../doubles/openai-chat-double.js';
import { describeServer } from '../helpers/suite.js';
import { useTestApp } from '../helpers/use-test-app.js';

const KEY = 'sk-test-llm-key';
const MODEL = 'deepseek-chat';

describeServer('translation through an OpenAI-compatible LLM (test double of chat completions)', () => {
  let llm: OpenAiChatDouble;
  beforeAll(async () => {
    llm = await startOpenAiChatDouble({ apiKey: KEY, model: MODEL });
  });
  afterAll(() => llm.close());
  const ctx = useTestApp({
    users: ['user'],
    config: () => ({
      translate: {
        provider: { kind: 'llm', baseUrl: llm.baseUrl, apiKey: KEY, model: MODEL, timeoutMs: 800 },
        perUserPerMinute: 1000,
      },
    }),
  });
  beforeEach(() => {
    llm.requests.length = 0;
  });

  const zh2en = async (text: string) => {
    const res = await ctx.app.call('POST', '/api/translate/zh2en', { token: ctx.user.token, body: { text } });
    expect(res.body.code, res.body.msg).toBe(0);
    return res.body.data.text as string;
  };

  it('sends the Chinese phrases of a prompt in one request, with the key and model, and keeps the syntax', async () => {
    llm.reply = (request) => {
      const phrases = JSON.parse(request.messages.at(-1)!.content) as string[];
      return JSON.stringify(
        phrases.map((p) => (p === '雪中古寺' ? 'ancient temple in the snow' : 'distant misty mountains')),
      );
    };
    expect(await zh2en('(雪中古寺:1.2)，远山，masterpiece')).toBe(
      '(ancient temple in the snow:1.2), distant misty mountains, masterpiece',
    );
    expect(llm.requests).toHaveLength(1);
    expect(llm.requests[0]).toMatchObject({ model: MODEL, authorization: `Bearer ${KEY}` });
    expect(llm.requests[0]!.messages[0]).toMatchObject({
      role: 'system',
      content: expect.stringContaining('Stable Diffusion'),
    });
    expect(JSON.parse(llm.requests[0]!.messages[1]!.content)).toEqual(['雪中古寺', '远山']);
  });

  it('falls back to the dictionary on a timeout, a 500 and an answer that does not fit', async () => {
    llm.failNext('hang');
    expect(await zh2en('一杯冒着热气的咖啡')).toBe('a cup of steaming coffee');
    llm.failNext('error');
    expect(await zh2en('穿着红裙的少女')).toBe('girl wearing red dress');
    llm.reply = () => 'Sure! Here is the translation: city';
    expect(await zh2en('长发少女')).toBe('girl with long hair');
    llm.reply = () => JSON.stringify(['one', 'two']);
    expect(await zh2en('湖边的小屋')).toBe('cabin by the lake');
    expect(llm.requests.map((r) => JSON.parse(r.messages.at(-1)!.content))).toEqual([
      ['一杯冒着热气的咖啡'],
      ['穿着红裙的少女'],
      ['长发少女'],
      ['湖边的小屋'],
    ]);
  });

  it('a submit translates all the words of a run in one request to the LLM', async () => {
    llm.reply = (request) =>
      JSON.stringify((JSON.parse(request.messages.at(-1)!.content) as string[]).map((p) => `llm(${p.length})`));
    const menu = await ctx.app.call('GET', '/api/art/model/menu', { token: ctx.user.token });
    const modelId = menu.body.data[0].models[0].id;
    const submit = await ctx.app.call('POST', '/api/generate/task', {
      token: ctx.user.token,
      body: {
        templateId: null,
        promptGroup: [
          { id: 'a', groupName: '一只狐狸', promptText: '一只狐狸', custom: '1' },
          { id: 'b', groupName: '雪地', promptText: '雪地', custom: '1' },
        ],
        // A word of the prompt library: its English is the library's, no request needed.
        negativePromptGroup: [{ id: 'n', groupName: '水印', promptText: '水印', custom: '1' }],
        parameters: { modelId, width: 256, height: 256, steps: 4 },
      },
    });
    expect(submit.body.code, submit.body.msg).toBe(0);
    expect(llm.requests).toHaveLength(1);
    const job = await ctx.app.db
      .selectFrom('generation_jobs')
      .select('payload')
      .where('generation_id', '=', submit.body.data.generateId)
      .executeTakeFirstOrThrow();
    expect(JSON.parse(job.payload)).toMatchObject({
      prompt: 'llm(4), llm(2)',
      negativePrompt: 'watermark',
      sourcePrompt: '一只狐狸, 雪地',
      sourceNegativePrompt: '水印',
    });
  });

  it('offers 「AI 润色」: a short idea becomes a fuller Chinese description and its English prompt', async () => {
    const features = await ctx.app.call('GET', '/api/translate/features', { token: ctx.user.token });
    expect(features.body.data).toEqual({ polish: true });
    llm.reply = () =>
      '```json\n{"chinese": "一只柴犬，戴着红色围巾，雪地，柔和的阳光", "english": "a shiba inu, red scarf, snow, soft sunlight"}\n```';
    const polished = await ctx.app.call('POST', '/api/translate/polish', {
      token: ctx.user.token,
      body: { text: '雪地里的柴犬' },
    });
    expect(polished.body).toMatchObject({
      code: 0,
      data: {
        chinese: '一只柴犬，戴着红色围巾，雪地，柔和的阳光',
        english: 'a shiba inu, red scarf, snow, soft sunlight',
      },
    });
    expect(llm.requests.at(-1)!.messages.at(-1)!.content).toBe('雪地里的柴犬');

    llm.failNext('error');
    const failed = await ctx.app.call('POST', '/api/translate/polish', {
      token: ctx.user.token,
      body: { text: '雪地里的柴犬' },
    });
    expect(failed.body).toMatchObject({ code: -1, msg: 'AI 润色暂时不可用，请稍后再试' });
    const empty = await ctx.app.call('POST', '/api/translate/polish', { token: ctx.user.token, body: { text: ' ' } });
    expect(empty.body).toMatchObject({ code: -1, msg: '请输入画面描述' });
  });
});

describeServer('「AI 润色」 without an LLM', () => {
  const ctx = useTestApp({ users: ['user'] });

  it('is not offered, and the endpoint says so', async () => {
    const features = await ctx.app.call('GET', '/api/translate/features', { token: ctx.user.token });
    expect(features.body.data).toEqual({ polish: false });
    const res = await ctx.app.call('POST', '/api/translate/polish', { token: ctx.user.token, body: { text: '柴犬' } });
    expect(res.body).toMatchObject({ code: -1, msg: 'AI 润色未开启，请联系管理员配置大模型' });
  });
});
