import { type GenerationProgress, generationProgressSchema } from '@huafang/contracts';
import { serializerCompiler } from 'fastify-type-provider-zod';
import { expect, it } from 'vitest';
import { compiledSerializer, reply } from '../../../src/platform/route-schemas.js';

const schema = reply(generationProgressSchema)[200];
const compiled = compiledSerializer({ schema });
const viaZod = serializerCompiler({ schema, method: 'POST', url: '/api/generate/task/progress' });

const image = {
  workId: 'w1',
  url: '/api/works/image/w1?e=1&s="引号"',
  thumbUrl: '/api/works/thumb/w1?e=1&s=x',
  width: 512,
  height: 768,
  seed: 4_294_967_295,
};
const progress: GenerationProgress = {
  generateId: 'g1',
  currentStepId: 'j1',
  currentStepNum: 2,
  status: 'running',
  progress: 37.5,
  queuePosition: 0,
  etaSeconds: 12,
  previewUrl: '/api/generate/task/preview/k?v=3',
  message: null,
  stepIndex: 1,
  images: [image],
};

it('writes the same JSON as the zod serializer it stands in for, on the progress answers', () => {
  const answers = [
    { code: 0, msg: '操作成功', data: progress },
    { code: 0, msg: '操作成功', data: { ...progress, status: 'queued', queuePosition: 3, previewUrl: null } },
    {
      code: 0,
      msg: '操作成功',
      data: { ...progress, status: 'failed', message: '后端出错：\n"内存不足"', images: [] },
    },
    { code: -1, msg: '生成任务不存在', data: null },
  ];
  for (const answer of answers) expect(compiled(answer)).toBe(viaZod(answer));
});

it('leaves out keys the schema lacks, at every depth, as zod strips them', () => {
  const stray = {
    code: 0,
    msg: '操作成功',
    data: { ...progress, userId: 'u-other', jobId: 'j1', images: [{ ...image, path: '/data/works/w1.png' }] },
    extra: true,
  };
  const written = compiled(stray);
  expect(written).toBe(viaZod(stray));
  expect(written).not.toMatch(/userId|jobId|path|extra/);
});
