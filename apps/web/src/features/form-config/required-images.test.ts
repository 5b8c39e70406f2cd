import { controlNetUnit, formField, PARAMETER_FIELD_PRESETS } from '@huafang/contracts';
import { describe, expect, it } from 'vitest';
import { imagesFirst, missingImage } from './required-images';

const preset = (name: string) => PARAMETER_FIELD_PRESETS[name]!();
const lineart = [preset('modelId'), preset('steps'), controlNetUnit({ module: 'lineart', text: '线稿控制' })];
const txt2img = { generateMode: 'txt2img', useParentImage: false } as const;

describe('missingImage', () => {
  it('names the ControlNet field until one unit has its reference image', () => {
    expect(missingImage(lineart, {}, txt2img)).toBe('请先上传线稿控制的参考图');
    expect(missingImage(lineart, { controlNets: [{ controlnetModule: 'lineart' }] }, txt2img)).toBe(
      '请先上传线稿控制的参考图',
    );
    expect(missingImage(lineart, { controlNets: [{ inputImageFileId: 'f1' }] }, txt2img)).toBeNull();
  });

  it('leaves a ControlNet field the user cannot fill alone', () => {
    const hidden = [{ ...controlNetUnit(), show: false }];
    expect(missingImage(hidden, {}, txt2img)).toBeNull();
    const disabled = [{ ...controlNetUnit(), disabled: true }];
    expect(missingImage(disabled, {}, txt2img)).toBeNull();
  });

  it('needs the input image of an image-to-image step, but not of one on the previous result', () => {
    const form = [preset('initImageFileId'), preset('denoisingStrength')];
    expect(missingImage(form, {}, { generateMode: 'img2img', useParentImage: false })).toBe('请先上传图片');
    expect(
      missingImage(form, { initImageFileId: 'f1' }, { generateMode: 'img2img', useParentImage: false }),
    ).toBeNull();
    expect(missingImage(form, {}, { generateMode: 'upscale', useParentImage: true })).toBeNull();
    expect(missingImage([preset('steps')], {}, txt2img)).toBeNull();
  });
});

describe('imagesFirst', () => {
  it('puts the uploads (and the ControlNet unit) at the top, the rest in order', () => {
    const form = [
      preset('modelId'),
      preset('steps'),
      formField({ type: 'image', name: 'initImageFileId', text: '底图' }),
    ];
    expect(imagesFirst([...form, controlNetUnit()]).map((item) => item.name)).toEqual([
      'initImageFileId',
      'controlNets',
      'modelId',
      'steps',
    ]);
  });
});
