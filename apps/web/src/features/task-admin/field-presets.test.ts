import { CONTROLNET_FIELD_NAMES, formConfigItemSchema, PARAMETER_NAMES } from '@huafang/contracts';
import { describe, expect, it } from 'vitest';
import { buildControlNetUnit, childLevel, nameSuggestions, PARAMETER_LABELS, presetField } from './field-presets';

describe('buildControlNetUnit', () => {
  it('is a controlNets collapse with the standard children in order', () => {
    const unit = buildControlNetUnit();
    expect(unit).toMatchObject({ type: 'collapse', name: 'controlNets', show: true });
    expect(unit.children?.map((child) => child.name)).toEqual([...CONTROLNET_FIELD_NAMES]);
    expect(formConfigItemSchema.safeParse(unit).success).toBe(true);
  });

  it('reads modules and models from the option sources and offers the three control modes', () => {
    const children = buildControlNetUnit().children ?? [];
    const byName = new Map(children.map((child) => [child.name, child]));
    expect(byName.get('controlnetModule')?.url).toBe('/api/options/controlnet/modules');
    expect(byName.get('controlnetModel')?.url).toBe('/api/options/controlnet/models');
    expect(byName.get('inputImageFileId')?.type).toBe('image');
    for (const name of ['weight', 'guidanceStart', 'guidanceEnd', 'thresholdA', 'thresholdB']) {
      expect(byName.get(name)?.type).toBe('slider');
    }
    expect(byName.get('processorRes')?.type).toBe('number');
    expect(byName.get('controlMode')).toMatchObject({
      type: 'radio',
      option: [
        { label: '均衡', value: 0 },
        { label: '更注重提示词', value: 1 },
        { label: '更注重控制图', value: 2 },
      ],
    });
  });

  it('builds a fresh unit each time', () => {
    const first = buildControlNetUnit();
    first.children?.pop();
    expect(buildControlNetUnit().children).toHaveLength(CONTROLNET_FIELD_NAMES.length);
  });
});

describe('presetField', () => {
  it('has a valid preset for every shared parameter and ControlNet unit field', () => {
    for (const name of [...PARAMETER_NAMES, ...CONTROLNET_FIELD_NAMES]) {
      const preset = presetField(name);
      expect(preset?.name).toBe(name);
      expect(formConfigItemSchema.safeParse(preset).success).toBe(true);
    }
    expect(presetField('thresholdA')).toMatchObject({ type: 'slider', text: '低阈值' });
    expect(presetField('unknown')).toBeUndefined();
  });

  it('names parameters and unit fields in Chinese', () => {
    expect(PARAMETER_LABELS.cfgScale).toBe('提示词相关性');
    expect(PARAMETER_LABELS.thresholdA).toBe('低阈值');
  });
});

describe('designer levels', () => {
  it('suggests unit field names inside a ControlNet unit and no nested unit inside a group', () => {
    expect(nameSuggestions('controlNets')).toEqual([...CONTROLNET_FIELD_NAMES]);
    expect(nameSuggestions('step')).toContain('controlNets');
    expect(nameSuggestions('group')).not.toContain('controlNets');
    expect(childLevel({ name: 'controlNets' })).toBe('controlNets');
    expect(childLevel({ name: 'advanced' })).toBe('group');
  });
});
