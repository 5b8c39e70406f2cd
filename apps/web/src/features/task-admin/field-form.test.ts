import { formConfigItemSchema } from '@huafang/contracts';
import { describe, expect, it } from 'vitest';
import { fieldFormValues, fieldFromForm, parseOptionValue } from './field-form';
import { buildControlNetUnit, presetField } from './field-presets';

describe('field drawer values', () => {
  it('round-trips every preset and the ControlNet unit', () => {
    const items = [buildControlNetUnit(), ...['modelId', 'sampler', 'steps', 'seed'].map((name) => presetField(name))];
    for (const item of items) {
      if (!item) throw new Error('preset');
      expect(fieldFromForm(fieldFormValues(item), item.children ?? [])).toEqual(item);
    }
  });

  it('keeps numeric option values numbers (controlMode) and text values text', () => {
    const controlMode = buildControlNetUnit().children?.at(-1);
    if (!controlMode) throw new Error('unit');
    const values = fieldFormValues(controlMode);
    expect(values.value).toBe('0');
    expect(values.option[2]).toEqual({ label: '更注重控制图', value: '2' });
    expect(fieldFromForm({ ...values, value: '2' }, []).value).toBe(2);
    expect(parseOptionValue('Euler a')).toBe('Euler a');
    expect(parseOptionValue(' 0.5 ')).toBe(0.5);
  });

  it('keeps only the settings of the chosen type and source', () => {
    const sampler = presetField('sampler');
    if (!sampler) throw new Error('preset');
    const values = { ...fieldFormValues(sampler), min: 1, max: 2, modelTabList: ['g1'] };
    const asOptions = fieldFromForm(
      { ...values, source: 'option', option: [{ label: '欧拉', value: 'Euler' }], value: 'Euler' },
      [],
    );
    expect(asOptions).not.toHaveProperty('url');
    expect(asOptions).not.toHaveProperty('min');
    expect(asOptions).not.toHaveProperty('modelTabList');
    expect(asOptions.option).toEqual([{ label: '欧拉', value: 'Euler' }]);

    const asSwitch = fieldFromForm({ ...values, type: 'switch', checked: true }, []);
    expect(asSwitch).toEqual({
      type: 'switch',
      name: 'sampler',
      text: '采样器',
      show: true,
      disabled: false,
      checked: true,
    });
  });

  it('writes module fromConfig lists as JSON and clears emptied ranges', () => {
    const values = fieldFormValues(presetField('steps') ?? buildControlNetUnit());
    const cleared = fieldFromForm({ ...values, min: null }, []);
    expect(cleared).not.toHaveProperty('min');

    const module = fieldFromForm(
      {
        ...fieldFormValues(buildControlNetUnit().children?.[0] ?? buildControlNetUnit()),
        source: 'option',
        option: [{ label: 'Canny', value: 'canny', moduleName: 'canny', fromConfig: ['thresholdA'] }],
      },
      [],
    );
    expect(module.option?.[0]).toEqual({
      label: 'Canny',
      value: 'canny',
      moduleName: 'canny',
      fromConfig: '["thresholdA"]',
    });
    expect(formConfigItemSchema.safeParse(module).success).toBe(true);
  });

  it('keeps model tabs for modelId only', () => {
    const model = presetField('modelId');
    if (!model) throw new Error('preset');
    expect(fieldFromForm({ ...fieldFormValues(model), modelTabList: ['g1'] }, []).modelTabList).toEqual(['g1']);
  });
});
