import { BgColorsOutlined } from '@ant-design/icons';
import type { FormConfigItem, LoraStyle, Parameters } from '@huafang/contracts';
import { useQuery } from '@tanstack/react-query';
import { Button, Form } from 'antd';
import { use, useState } from 'react';
import { loraQueries } from '../../../services/lora';
import { ChosenLoras } from './ChosenLoras';
import { LoraPicker } from './LoraPicker';
import { addLoraUse, allowedLoraIds, MAX_LORAS, readLoraUses, removeLoraUse, setLoraWeight } from './lora-picks';
import { LoraPromptContext } from './lora-prompt-target';
import { useChosenModel } from './use-chosen-model';
import './lora.css';

interface LoraFieldProps {
  item: FormConfigItem;
  values: Parameters;
  setValue: (name: string, value: unknown) => void;
}

/**
 * The `loras` field (LoRA 风格): the chosen styles as chips with their weight, and 风格 opening the picker. The
 * field's options are the LoRAs a template step allows (none: any enabled one); its value, a step's preset.
 */
export function LoraField({ item, values, setValue }: LoraFieldProps) {
  const styles = useQuery(loraQueries.styles());
  const model = useChosenModel(values.modelId);
  const prompts = use(LoraPromptContext);
  const [open, setOpen] = useState(false);
  const uses = readLoraUses(values[item.name]);
  const allowed = allowedLoraIds(item);

  const pick = (lora: LoraStyle) => {
    const next = addLoraUse(uses, lora);
    if (next === uses) return;
    setValue(item.name, next);
    prompts?.addTriggerWords(lora);
  };
  const remove = (loraId: string) => {
    setValue(item.name, removeLoraUse(uses, loraId));
    const lora = styles.data?.find((style) => style.id === loraId);
    prompts?.removeTriggerWords(lora ?? { id: loraId, triggerWords: [] });
  };

  return (
    <Form.Item label={item.text} className="hf-lora-field">
      <div className="hf-lora-field-body">
        <Button
          icon={<BgColorsOutlined aria-hidden />}
          onClick={() => setOpen(true)}
          disabled={item.disabled}
          aria-haspopup="dialog"
        >
          风格{uses.length > 0 ? `（${uses.length}/${MAX_LORAS}）` : ''}
        </Button>
        <ChosenLoras
          uses={uses}
          styles={styles.data}
          model={model}
          disabled={item.disabled}
          onWeight={(loraId, weight) => setValue(item.name, setLoraWeight(uses, loraId, weight))}
          onRemove={remove}
        />
      </div>
      <LoraPicker
        open={open}
        onClose={() => setOpen(false)}
        styles={styles}
        allowed={allowed}
        model={model}
        chosen={uses}
        onPick={pick}
        onRemove={remove}
      />
    </Form.Item>
  );
}
