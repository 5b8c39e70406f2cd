import type { EngineHealth } from '../engine.js';
import { type SdWebUiClient, SdWebUiError } from './sdwebui-client.js';
import { globalProgressSchema } from './sdwebui-types.js';

const HEALTH_TIMEOUT_MS = 5_000;

/** Whether the server answers its API, and whether it is painting now (for anyone: its progress is global). */
export async function checkHealth(client: SdWebUiClient): Promise<EngineHealth> {
  try {
    const answer = await client.json('GET', '/sdapi/v1/progress?skip_current_image=true', globalProgressSchema, {
      timeoutMs: HEALTH_TIMEOUT_MS,
    });
    // job_count is -1 between the start of a job and its first batch, and 0 when idle.
    const busy = (answer.state?.job_count ?? 0) !== 0 || (answer.progress ?? 0) > 0;
    return { ok: true, busy, message: busy ? '正常（正在生成）' : '正常' };
  } catch (error) {
    return { ok: false, busy: false, message: healthMessage(error) };
  }
}

function healthMessage(error: unknown): string {
  if (!(error instanceof SdWebUiError)) return '无法连接：未知错误';
  switch (error.reason) {
    case 'network':
    case 'timeout':
      return `无法连接：${error.detail}`;
    case 'auth':
      return '认证失败，请检查用户名和密码';
    case 'server':
      return `后端出错：${error.detail}`;
    case 'rejected':
      return `接口不可用：${error.detail}（请确认后端以 --api 启动）`;
    case 'redirect':
      return `后端${error.detail}，请填写后端服务本身的地址`;
    default:
      return `后端异常：${error.detail}`;
  }
}
