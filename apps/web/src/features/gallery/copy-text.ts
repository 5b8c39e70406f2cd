import { toast } from '../../services/notices';

/** 复制提示词: the clipboard needs a secure context and permission, so a refusal says how to copy by hand. */
export async function copyText(text: string, copied = '已复制'): Promise<void> {
  try {
    await navigator.clipboard.writeText(text);
    toast(copied, 'success');
  } catch {
    toast('复制失败，请手动选中文字复制');
  }
}
