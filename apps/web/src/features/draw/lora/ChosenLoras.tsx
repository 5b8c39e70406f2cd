import { CloseOutlined, PictureOutlined } from '@ant-design/icons';
import type { LoraStyle, LoraUse } from '@huafang/contracts';
import { Button, Slider } from 'antd';
import { type ChosenModel, formatWeight, misfit } from './lora-picks';

interface ChosenLorasProps {
  uses: LoraUse[];
  /** The styles the user can see; undefined while loading. */
  styles: LoraStyle[] | undefined;
  /** The chosen checkpoint, to flag a LoRA (preset or recalled) that does not suit it. */
  model: ChosenModel | undefined;
  disabled: boolean;
  onWeight: (loraId: string, weight: number) => void;
  onRemove: (loraId: string) => void;
}

/** A LoRA the list no longer offers (withdrawn since a work was made) still shows, so it can be removed. */
const UNKNOWN_RANGE = { minWeight: -2, maxWeight: 2 };

/** The chosen LoRAs as chips: cover, name and weight, a slider within the LoRA's range, and a remove button. */
export function ChosenLoras({ uses, styles, model, disabled, onWeight, onRemove }: ChosenLorasProps) {
  if (uses.length === 0) return null;
  return (
    <ul className="hf-lora-chips" aria-label="已选风格">
      {uses.map((use) => {
        const lora = styles?.find((style) => style.id === use.loraId);
        const name = lora?.name ?? (styles ? '已下架的风格' : '风格加载中…');
        const range = lora ?? UNKNOWN_RANGE;
        const problem = !lora
          ? null
          : lora.locked
            ? (lora.unlockHint ?? '当前账号暂不可用')
            : misfit(lora, model) && `${misfit(lora, model)}，与当前模型不符`;
        return (
          <li key={use.loraId} className="hf-lora-chip">
            <div className="hf-lora-chip-head">
              {lora?.cover ? (
                <img src={lora.cover} alt="" className="hf-lora-chip-cover" loading="lazy" />
              ) : (
                <span className="hf-lora-chip-cover hf-lora-cover-empty" aria-hidden>
                  <PictureOutlined />
                </span>
              )}
              <span className="hf-lora-chip-name" title={name}>
                {name}
              </span>
              <span className="hf-lora-chip-weight">{formatWeight(use.weight)}</span>
              <Button
                type="text"
                size="small"
                icon={<CloseOutlined aria-hidden />}
                aria-label={`移除风格「${name}」`}
                onClick={() => onRemove(use.loraId)}
                disabled={disabled}
              />
            </div>
            {problem && <div className="hf-lora-chip-problem">{problem}</div>}
            <Slider
              min={range.minWeight}
              max={range.maxWeight}
              step={0.05}
              value={use.weight}
              onChange={(weight) => onWeight(use.loraId, weight)}
              disabled={disabled || !lora}
              tooltip={{ formatter: (weight) => (weight === undefined ? '' : formatWeight(weight)) }}
              ariaLabelForHandle={`「${name}」的权重`}
              className="hf-lora-chip-slider"
            />
          </li>
        );
      })}
    </ul>
  );
}
