import type { ModelSyncResult } from '@huafang/contracts';

export interface SyncLine {
  backendId: string;
  ok: boolean;
  text: string;
}

/** One line per backend, as 同步模型 reports it: 「后端 A：模型 3 个，LoRA 5 个」, or why it could not be read. */
export function syncLines(result: ModelSyncResult): SyncLine[] {
  return result.backends.map((backend) => ({
    backendId: backend.backendId,
    ok: backend.ok,
    text: backend.ok
      ? `${backend.name}：模型 ${backend.checkpoints} 个，LoRA ${backend.loras} 个${backend.vaes > 0 ? `，VAE ${backend.vaes} 个` : ''}`
      : `${backend.name}：读取失败，${backend.message ?? '后端没有应答'}`,
  }));
}

/** The sentence over the lines: how many backends answered and what is new. */
export function syncHeadline(result: ModelSyncResult): string {
  const failed = result.backends.filter((backend) => !backend.ok).length;
  if (result.backends.length === 0) return '没有已启用的推理后端可以同步';
  const read = `已读取 ${result.backends.length - failed} 个后端${failed > 0 ? `，${failed} 个失败` : ''}`;
  return result.newLoras > 0
    ? `${read}；新发现 ${result.newLoras} 个 LoRA，已添加为停用，在「LoRA 风格」里命名并启用后用户才能选择`
    : `${read}；没有新的 LoRA`;
}
