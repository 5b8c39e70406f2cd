import type { FormConfigItem } from '@huafang/contracts';
import { CONTROLNETS } from '../form-config/form-values';

/** The query parameter the Photoshop plugin opens /draw with, and the step parameter it fills. */
export const INIT_IMAGE_PARAM = 'initImage';
export const INIT_IMAGE_FIELD = 'initImageFileId';

/** A fileId as the upload API hands them out; anything else in the address is ignored rather than sent on. */
export function readHandedFileId(value: string | null): string | null {
  const fileId = value?.trim() ?? '';
  return /^[\w-]{1,128}$/.test(fileId) ? fileId : null;
}

/**
 * Whether the form shows a field named `name` at the top level, or inside a plain collapse (高级设置), whose
 * children are top-level parameters too; ControlNet units hold parameters of their own and do not count.
 */
export function showsField(items: FormConfigItem[], name: string): boolean {
  return items.some((item) => {
    if (!item.show) return false;
    if (item.type === 'collapse') return item.name !== CONTROLNETS && showsField(item.children ?? [], name);
    return item.name === name;
  });
}
