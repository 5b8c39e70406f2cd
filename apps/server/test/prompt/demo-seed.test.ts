import { expect, it } from 'vitest';
import { describeServer } from '../helpers/suite.js';
import { useTestApp } from '../helpers/use-test-app.js';

type Word = { label: string; text: string };

describeServer('demo seed: animal words and honestly labelled demo models', () => {
  const ctx = useTestApp({ admin: true, users: ['user'] });

  const search = async (keyword: string): Promise<Word[]> =>
    (
      await ctx.app.call('GET', `/api/prompt/list?helpUrlFlag=02&pageSize=50&keyword=${encodeURIComponent(keyword)}`, {
        token: ctx.user.token,
      })
    ).body.data.list;

  it('finds cats, dogs and other animals in the prompt library, in Chinese and in English', async () => {
    const cats = await search('猫');
    expect(cats.map((word) => word.text)).toEqual(expect.arrayContaining(['cat', 'kitten', 'orange tabby cat']));
    expect((await search('狗')).map((word) => word.text)).toEqual(expect.arrayContaining(['dog', 'puppy']));
    expect((await search('熊猫')).map((word) => word.text)).toContain('giant panda');
    expect((await search('rabbit')).map((word) => word.label)).toContain('兔子');

    const tree = (await ctx.app.call('GET', '/api/prompt/tree?helpUrlFlag=02', { token: ctx.user.token })).body.data;
    const animals = tree.find((category: { name: string }) => category.name === '动物');
    expect(animals?.children.map((child: { name: string }) => child.name)).toEqual([
      '宠物',
      '野生动物',
      '鸟类',
      '水中生物',
      '神话生物',
      '动物特征',
    ]);
    // The everyday list (helpUrlFlag 01) offers the common animals too.
    const featured = (
      await ctx.app.call('GET', `/api/prompt/list?keyword=${encodeURIComponent('猫')}`, { token: ctx.user.token })
    ).body.data.list as Word[];
    expect(featured.map((word) => word.text)).toContain('cat');
  });

  it('labels the built-in demo models by their engine, not as Stable Diffusion checkpoints', async () => {
    const menu = (await ctx.app.call('GET', '/api/art/model/menu?scope=all', { token: ctx.admin })).body.data;
    const models = menu.flatMap((group: { models: { engine: string; baseModel: string }[] }) => group.models);
    expect(models.length).toBe(6);
    for (const model of models) expect(model).toMatchObject({ engine: 'builtin', baseModel: '内置演示引擎' });
  });
});
