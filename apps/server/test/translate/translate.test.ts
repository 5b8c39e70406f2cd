import { expect, it } from 'vitest';
import { PromptLibraryCache } from '../../src/features/translate/prompt-library.js';
import { TranslateService } from '../../src/features/translate/translate.service.js';
import { LocalBroadcast } from '../../src/platform/broadcast/broadcast.js';
import { createRepositories } from '../../src/repositories.js';
import { describeServer } from '../helpers/suite.js';
import { loginAdmin, registerUser } from '../helpers/test-app.js';
import { useTestApp } from '../helpers/use-test-app.js';

const LIMIT = 50;

/** Typical prompts users type, and English words a good translation must contain (a RegExp where wording may vary). */
const PROMPTS: [string, (string | RegExp)[]][] = [
  ['一个女孩，长发，微笑', ['girl', 'long hair', 'smile']],
  ['夕阳下的城市', ['sunset', 'city']],
  ['穿着红色连衣裙的少女站在樱花树下', ['girl', 'wearing', 'red', 'dress', 'cherry']],
  ['赛博朋克风格的未来城市，霓虹灯', ['cyberpunk', 'city', 'neon']],
  ['三只白色的猫坐在窗台上', ['three', 'white', 'cats', 'sitting']],
  ['一群飞翔的鸟', ['flying', 'birds']],
  ['戴着眼镜的老人在读书', ['glasses', 'old', 'reading']],
  ['古老的城堡和茂密的森林', ['ancient', 'castle', 'forest']],
  ['雪山下的湖泊', ['snowy mountains', 'lake']],
  ['金色的麦田', ['golden', 'wheat']],
  ['海边的灯塔', ['beach', 'lighthouse']],
  ['星空下的帐篷', ['starry sky', 'tent']],
  ['一只橘猫在睡觉', ['cat', 'sleeping']],
  ['蓝色的眼睛，金色的头发', ['blue eyes', 'golden hair']],
  ['骑着白马的骑士', ['knight', 'white horse']],
  ['月光下的竹林', ['moonlight', 'bamboo']],
  ['古风美女，汉服，油纸伞', ['woman', 'hanfu', 'umbrella']],
  ['宇航员在月球上行走', ['astronaut', 'moon', 'walking']],
  ['秋天的枫叶', ['autumn', 'maple']],
  ['可爱的小狗在草地上奔跑', ['cute', 'puppy', 'running']],
  ['龙在云中飞翔', ['dragon', 'cloud', 'flying']],
  ['两个女孩在咖啡馆喝咖啡', ['2girls', 'cafe', 'coffee']],
  ['沙漠中的骆驼', ['desert', 'camel']],
  ['机器人和小女孩', ['robot', 'girl']],
  ['清晨的阳光照进房间', ['morning', 'sunlight', 'room']],
  ['一杯热咖啡', ['cup', 'hot', 'coffee']],
  ['水面上的倒影', ['reflection', 'water']],
  ['盛开的牡丹花', [/bloom/, 'peony']],
  ['大雪覆盖的村庄', ['snow', 'village']],
  ['雨中的东京街头', ['rain', 'tokyo', 'street']],
  ['黑暗中的蜡烛', ['candle', 'dark']],
  ['坐在椅子上看书的女孩', ['girl', 'chair', 'reading']],
  ['山顶上的寺庙', ['temple', /hill|mountain/]],
  ['湖边的小木屋', ['lake', /cabin|hut|house/]],
  ['白色的婚纱，新娘', ['white', 'wedding dress', 'bride']],
  ['穿着校服的男孩', ['boy', 'school uniform']],
  ['城市上空的飞船', ['city', 'spaceship', 'sky']],
  ['深海里的鲸鱼', ['deep sea', 'whale']],
  // Demo prompt library words, positive and negative.
  ['杰作，最佳质量，超精细，电影光效', ['masterpiece', 'best quality', 'ultra-detailed', 'cinematic lighting']],
  ['低质量，模糊，多余手指，水印', ['low quality', 'blurry', 'extra fingers', 'watermark']],
];

describeServer('prompt translation zh → en (offline dictionary)', () => {
  const ctx = useTestApp({
    config: { translate: { provider: { kind: 'dictionary' }, perUserPerMinute: LIMIT } },
    users: ['user'],
  });
  const translate = (text: unknown, token = ctx.user.token) =>
    ctx.app.call('POST', '/api/translate/zh2en', { token, body: { text } });

  it(`translates ${PROMPTS.length} typical prompts into the expected English words, with no Chinese left`, async () => {
    const misses: string[] = [];
    for (const [input, words] of PROMPTS) {
      const res = await translate(input);
      expect(res.status).toBe(200);
      expect(res.body.code).toBe(0);
      const text: string = res.body.data.text;
      const lower = text.toLowerCase();
      const missing = words.filter((w) => (typeof w === 'string' ? !lower.includes(w) : !w.test(lower)));
      if (missing.length > 0 || /\p{Script=Han}/u.test(text))
        misses.push(`${input} → ${text} (missing ${missing.join(', ')})`);
    }
    expect(misses).toEqual([]);
  });

  it('keeps prompt syntax: commas, weights, brackets, LoRA blocks and numbers', async () => {
    ctx.user = await registerUser(ctx.app);
    const cases: [string, string][] = [
      ['水墨山水，(月亮:1.2), masterpiece', 'ink wash landscape, (moon:1.2), masterpiece'],
      ['<lora:国风:0.8>，[蝴蝶]，（花朵：1.3）', '<lora:国风:0.8>, [butterfly], (flowers:1.3)'],
      ['(杰作:1.4), [模糊:0.5], 8K画质', '(masterpiece:1.4), [blurry:0.5], 8k'],
      ['[猫:狗:10], 3个男孩', '[cat:dog:10], 3 boys'],
    ];
    for (const [input, expected] of cases) {
      const res = await translate(input);
      expect(res.body.data.text, input).toBe(expected);
    }
  });

  it('passes English through, only tidying the commas', async () => {
    const english = 'masterpiece, best quality, 1girl, (solo:1.1), <lora:add_detail:0.5>, BREAK blue sky';
    expect((await translate(english)).body.data.text).toBe(english);
    expect((await translate('a girl,masterpiece ,  best quality')).body.data.text).toBe(
      'a girl, masterpiece, best quality',
    );
  });

  it('refuses empty and too long text with a Chinese message', async () => {
    for (const text of ['', '   ', undefined]) {
      const res = await translate(text);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: -1, msg: '请输入要翻译的内容' });
    }
    const long = await translate('猫'.repeat(1001));
    expect(long.status).toBe(400);
    expect(long.body.msg).toBe('翻译内容不能超过 1000 个字符');
    expect((await translate('猫'.repeat(1000))).status).toBe(200);
  });

  it('requires login', async () => {
    const res = await ctx.app.call('POST', '/api/translate/zh2en', { body: { text: '月亮' } });
    expect(res.status).toBe(401);
    expect(res.body.code).toBe(401);
  });

  it(`limits each user to ${LIMIT} requests a minute (429 with the envelope), other users unaffected`, async () => {
    const busy = await registerUser(ctx.app);
    for (let i = 0; i < LIMIT; i++) expect((await translate(`月亮${i}`, busy.token)).status).toBe(200);
    const over = await translate('月亮', busy.token);
    expect(over.status).toBe(429);
    expect(over.body).toMatchObject({ code: -1, data: null });
    expect(over.body.msg).toMatch(/^操作过于频繁，请 \d+ 秒后再试$/);
    // Same client address, another account: its own budget.
    const other = await registerUser(ctx.app);
    expect((await translate('月亮', other.token)).status).toBe(200);
  });

  it("uses an admin's new library word once the library is read again", async () => {
    ctx.user = await registerUser(ctx.app);
    const admin = await loginAdmin(ctx.app);
    const tree = await ctx.app.call('GET', '/api/prompt/tree?helpUrlFlag=02', { token: admin });
    const categoryId = tree.body.data[0].children[0].id;
    const before = (await translate('琉璃灯，月亮')).body.data.text;
    expect(before).not.toContain('glazed glass lamp');

    // A cache with a clock the test moves, on the same database: the library is re-read after 60 s.
    let now = 0;
    const cache = new PromptLibraryCache(
      createRepositories(ctx.app.db, ctx.app.config.database.kind).prompts,
      60_000,
      () => now,
    );
    expect((await cache.get()).get('琉璃灯')).toBeUndefined();
    const created = await ctx.app.call('POST', '/api/admin/prompt/words', {
      token: admin,
      body: { categoryId, label: '琉璃灯', text: 'glazed glass lamp' },
    });
    expect(created.body.code).toBe(0);
    now = 59_000;
    expect((await cache.get()).get('琉璃灯')).toBeUndefined();
    now = 60_000;
    expect((await cache.get()).get('琉璃灯')).toBe('glazed glass lamp');

    // The app's own service hears of the edit at once: no waiting for the window.
    expect((await translate('琉璃灯，月亮')).body.data.text).toBe('glazed glass lamp, moon');
    // The result cache follows library edits too.
    await ctx.app.call('PUT', `/api/admin/prompt/words/${created.body.data.id}`, {
      token: admin,
      body: { label: '琉璃灯', text: 'liuli lamp' },
    });
    expect((await translate('琉璃灯，月亮')).body.data.text).toBe('liuli lamp, moon');
  });

  it('falls back to the dictionary, with a warning, when the provider cannot be reached', async () => {
    // A real LibreTranslate adapter pointed at a closed local port: the connection is refused.
    const service = new TranslateService({
      repos: createRepositories(ctx.app.db, ctx.app.config.database.kind),
      provider: { kind: 'libretranslate', url: 'http://127.0.0.1:9', apiKey: undefined },
      log: ctx.app.app.log,
      bus: new LocalBroadcast(),
      words: ctx.app.services.wordFilter,
    });
    expect(await service.zh2en('夕阳下的城市，(月亮:1.2)')).toBe('city under sunset, (moon:1.2)');
    expect(ctx.app.logLines.some((l) => l.includes('translation provider failed'))).toBe(true);
    // Library phrases never reach the provider.
    expect(await service.zh2en('杰作')).toBe('masterpiece');
  });
});
