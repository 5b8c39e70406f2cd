import type { FormConfigItem, GenerateMode, Parameters } from '@huafang/contracts';
import { CONTROLNETS, readControlNetUnits } from './form-values';

/** The step facts that decide whether its form needs an image of the user's. */
export interface ImageNeeds {
  generateMode: GenerateMode;
  /** Draws on the previous step's result instead of an upload. */
  useParentImage: boolean;
}

const filled = (value: unknown) => (typeof value === 'string' && value.trim() !== '') || typeof value === 'number';
const editable = (item: FormConfigItem) => item.show && !item.disabled;

function flatten(items: FormConfigItem[]): FormConfigItem[] {
  return items.flatMap((item) =>
    item.type === 'collapse' && item.name !== CONTROLNETS ? flatten(item.children ?? []) : [item],
  );
}

/**
 * Why the step cannot start for want of an image, in the server's words (parameter-check.ts), or null: an
 * image-to-image step needs its input image, and a ControlNet field the user can fill needs one reference image.
 */
export function missingImage(formConfig: FormConfigItem[], parameters: Parameters, needs: ImageNeeds): string | null {
  const fields = flatten(formConfig);
  if (needs.generateMode !== 'txt2img' && !needs.useParentImage && !filled(parameters.initImageFileId)) {
    return `请先${fields.find((field) => field.name === 'initImageFileId')?.text ?? '上传图片'}`;
  }
  const controlNet = fields.find((field) => field.name === CONTROLNETS);
  const reference = controlNet?.children?.find((child) => child.name === 'inputImageFileId');
  if (!controlNet || !editable(controlNet) || !reference || reference.show === false) return null;
  const hasReference = readControlNetUnits(parameters).some((unit) => filled(unit.inputImageFileId));
  return hasReference ? null : `请先上传${controlNet.text}的${reference.text}`;
}

/** A field taking the user's images: an image upload, or the ControlNet units with their 参考图. */
export function takesImage(item: FormConfigItem): boolean {
  return item.type === 'image' || item.name === CONTROLNETS;
}

/** Fields that take the user's images come first in a step's form: the rest of the form depends on them. */
export function imagesFirst(items: FormConfigItem[]): FormConfigItem[] {
  return [...items.filter(takesImage), ...items.filter((item) => !takesImage(item))];
}
