import type { FormConfigItem } from '@huafang/contracts';
import { describe, expect, it } from 'vitest';
import { INIT_IMAGE_FIELD, readHandedFileId, showsField } from './init-image';

const field = (name: string, type: FormConfigItem['type'], extra: Partial<FormConfigItem> = {}): FormConfigItem => ({
  name,
  type,
  text: name,
  show: true,
  disabled: false,
  checked: false,
  ...extra,
});

describe('readHandedFileId', () => {
  it('accepts an upload id', () => {
    expect(readHandedFileId(' 3f2b9c1e-77aa-4c1b-9d1e-0a1b2c3d4e5f ')).toBe('3f2b9c1e-77aa-4c1b-9d1e-0a1b2c3d4e5f');
    expect(readHandedFileId('V1StGXR8_Z5jdHi6B')).toBe('V1StGXR8_Z5jdHi6B');
  });

  it('ignores a missing, empty or odd value', () => {
    expect(readHandedFileId(null)).toBeNull();
    expect(readHandedFileId('  ')).toBeNull();
    expect(readHandedFileId('../secret')).toBeNull();
    expect(readHandedFileId('a'.repeat(129))).toBeNull();
  });
});

describe('showsField', () => {
  it('finds a shown image field at the top level or in 高级设置', () => {
    expect(showsField([field('width', 'number'), field(INIT_IMAGE_FIELD, 'image')], INIT_IMAGE_FIELD)).toBe(true);
    const advanced = field('advanced', 'collapse', { children: [field(INIT_IMAGE_FIELD, 'image')] });
    expect(showsField([advanced], INIT_IMAGE_FIELD)).toBe(true);
  });

  it('skips hidden fields and ControlNet units', () => {
    expect(showsField([field(INIT_IMAGE_FIELD, 'image', { show: false })], INIT_IMAGE_FIELD)).toBe(false);
    const hiddenGroup = field('advanced', 'collapse', { show: false, children: [field(INIT_IMAGE_FIELD, 'image')] });
    expect(showsField([hiddenGroup], INIT_IMAGE_FIELD)).toBe(false);
    const controlNets = field('controlNets', 'collapse', { children: [field(INIT_IMAGE_FIELD, 'image')] });
    expect(showsField([controlNets], INIT_IMAGE_FIELD)).toBe(false);
    expect(showsField([], INIT_IMAGE_FIELD)).toBe(false);
  });
});
