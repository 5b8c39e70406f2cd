import { describe, expect, it } from 'vitest';
import { syncHeadline, syncLines } from './sync-summary';

const backend = (name: string, overrides: object = {}) => ({
  backendId: name,
  name,
  ok: true,
  message: null,
  checkpoints: 3,
  loras: 5,
  vaes: 0,
  ...overrides,
});

describe('同步模型 summary', () => {
  it('says per backend what it has, and why one could not be read', () => {
    const result = {
      backends: [
        backend('后端 A'),
        backend('后端 B', { vaes: 2 }),
        backend('后端 C', { ok: false, message: '连接超时' }),
      ],
      newLoras: 4,
    };
    expect(syncLines(result).map((line) => line.text)).toEqual([
      '后端 A：模型 3 个，LoRA 5 个',
      '后端 B：模型 3 个，LoRA 5 个，VAE 2 个',
      '后端 C：读取失败，连接超时',
    ]);
    expect(syncHeadline(result)).toBe(
      '已读取 2 个后端，1 个失败；新发现 4 个 LoRA，已添加为停用，在「LoRA 风格」里命名并启用后用户才能选择',
    );
  });

  it('says so when nothing is new or no backend is enabled', () => {
    expect(syncHeadline({ backends: [backend('内置')], newLoras: 0 })).toBe('已读取 1 个后端；没有新的 LoRA');
    expect(syncHeadline({ backends: [], newLoras: 0 })).toBe('没有已启用的推理后端可以同步');
  });
});
