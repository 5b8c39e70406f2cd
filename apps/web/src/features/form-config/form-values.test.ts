import type { FormConfigItem, FormOption } from '@huafang/contracts';
import { describe, expect, it } from 'vitest';
import { initialParameters, parseFromConfig, readControlNetUnits, visibleControlNetFields } from './form-values';

function field(type: FormConfigItem['type'], name: string, extra: Partial<FormConfigItem> = {}): FormConfigItem {
  return { type, name, text: name, show: true, disabled: false, checked: false, ...extra };
}

const unitFields = [
  field('select', 'controlnetModule', { url: '/api/options/controlnet/modules' }),
  field('select', 'controlnetModel', { url: '/api/options/controlnet/models' }),
  field('image', 'inputImageFileId'),
  field('slider', 'weight', { value: 1 }),
  field('number', 'processorRes', { value: 512 }),
  field('number', 'thresholdA', { value: 100 }),
];

const config: FormConfigItem[] = [
  field('number', 'steps', { value: 20 }),
  field('switch', 'hires', { checked: true }),
  field('collapse', 'advanced', { children: [field('number', 'seed', { value: -1 })] }),
  field('collapse', 'controlNets', { children: unitFields }),
];

describe('initial parameters of a step', () => {
  it('starts from the form defaults, flattening plain collapses and giving controlNets one unit', () => {
    expect(initialParameters(config, {})).toEqual({
      steps: 20,
      hires: true,
      seed: -1,
      controlNets: [{ weight: 1, processorRes: 512, thresholdA: 100 }],
    });
  });

  it('lets saved parameters win and completes every saved unit with the defaults', () => {
    const values = initialParameters(config, {
      steps: 30,
      extra: 'kept',
      controlNets: [{ controlnetModule: 'canny', weight: 0.6 }, 'broken'],
    });
    expect(values.steps).toBe(30);
    expect(values.extra).toBe('kept');
    expect(values.controlNets).toEqual([
      { controlnetModule: 'canny', weight: 0.6, processorRes: 512, thresholdA: 100 },
    ]);
  });

  it('reads units defensively', () => {
    expect(readControlNetUnits({ controlNets: 'nope' })).toEqual([]);
    expect(readControlNetUnits({ controlNets: [{ a: 1 }, null, [1]] })).toEqual([{ a: 1 }]);
  });
});

describe('ControlNet unit fields', () => {
  const canny: FormOption = { label: 'Canny', value: 'canny', moduleName: 'canny', fromConfig: '["processorRes"]' };

  it('shows the core fields and only the fields the module lists', () => {
    const names = visibleControlNetFields(unitFields, canny).map((item) => item.name);
    expect(names).toEqual(['controlnetModule', 'controlnetModel', 'inputImageFileId', 'processorRes']);
  });

  it('shows only the core fields before a module is chosen or when fromConfig is broken', () => {
    const core = ['controlnetModule', 'controlnetModel', 'inputImageFileId'];
    expect(visibleControlNetFields(unitFields, undefined).map((item) => item.name)).toEqual(core);
    const broken = { ...canny, fromConfig: '{oops' };
    expect(visibleControlNetFields(unitFields, broken).map((item) => item.name)).toEqual(core);
  });

  it('honours show: false even for a listed field', () => {
    const hidden = unitFields.map((item) => (item.name === 'processorRes' ? { ...item, show: false } : item));
    expect(visibleControlNetFields(hidden, canny).map((item) => item.name)).not.toContain('processorRes');
  });

  it('parses fromConfig as a list of names', () => {
    expect(parseFromConfig('["a", 1, "b"]')).toEqual(['a', 'b']);
    expect(parseFromConfig('"a"')).toEqual([]);
    expect(parseFromConfig(undefined)).toEqual([]);
  });
});
