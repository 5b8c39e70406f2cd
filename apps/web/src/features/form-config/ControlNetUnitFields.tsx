import type { ControlnetPreviewBody, FormConfigItem } from '@huafang/contracts';
import { Form } from 'antd';
import { ControlNetPreview } from './ControlNetPreview';
import { FieldControl } from './FieldControl';
import { CONTROLNET_MODULE, type ControlNetUnit, visibleControlNetFields } from './form-values';
import { useFieldOptions } from './use-field-options';
import './controlnet.css';

const REFERENCE = 'inputImageFileId';

interface ControlNetUnitFieldsProps {
  fields: FormConfigItem[];
  unit: ControlNetUnit;
  onChange: (unit: ControlNetUnit) => void;
}

const numberOf = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) ? value : undefined);

/** The preview request for a unit, once it has a reference image and a 预处理器 that does something. */
function previewBody(unit: ControlNetUnit): ControlnetPreviewBody | null {
  const fileId = unit[REFERENCE];
  const module = unit[CONTROLNET_MODULE];
  if (typeof fileId !== 'string' || !fileId || typeof module !== 'string' || !module || module === 'none') return null;
  const processorRes = numberOf(unit.processorRes);
  return {
    fileId,
    controlnetModule: module,
    processorRes: processorRes === undefined ? undefined : Math.round(processorRes),
    thresholdA: numberOf(unit.thresholdA),
    thresholdB: numberOf(unit.thresholdB),
  };
}

/**
 * One ControlNet unit: the 参考图 first (the unit does nothing without it) with the 预处理器's preview beside it,
 * then the other fields; the chosen 预处理器's fromConfig decides which tuning fields show.
 */
export function ControlNetUnitFields({ fields, unit, onChange }: ControlNetUnitFieldsProps) {
  const { options } = useFieldOptions(fields.find((field) => field.name === CONTROLNET_MODULE));
  const module = options.find((option) => option.value === unit[CONTROLNET_MODULE]);
  const visible = visibleControlNetFields(fields, module);
  const reference = visible.find((field) => field.name === REFERENCE);
  const preview = previewBody(unit);
  const field = (item: FormConfigItem) => (
    <FieldControl item={item} value={unit[item.name]} onChange={(value) => onChange({ ...unit, [item.name]: value })} />
  );

  return (
    <>
      {reference && (
        <Form.Item label={reference.text} required>
          <div className="hf-controlnet-reference">
            {field(reference)}
            {preview && <ControlNetPreview body={preview} />}
          </div>
        </Form.Item>
      )}
      {visible
        .filter((item) => item.name !== REFERENCE)
        .map((item) => (
          <Form.Item key={item.name} label={item.text}>
            {field(item)}
          </Form.Item>
        ))}
    </>
  );
}
