import { ThunderboltOutlined } from '@ant-design/icons';
import type { FormConfigItem } from '@huafang/contracts';
import { Button, InputNumber, Space, Tooltip } from 'antd';
import './parameter-form.css';

const MAX_SEED = 4_294_967_295;

interface SeedInputProps {
  item: FormConfigItem;
  value: number | undefined;
  onChange: (value: number | undefined) => void;
}

/** 随机种子: -1 lets the engine pick; the dice fixes a random one so a result can be reproduced. */
export function SeedInput({ item, value, onChange }: SeedInputProps) {
  return (
    <Space.Compact block>
      <InputNumber<number>
        value={value}
        onChange={(next) => onChange(next ?? undefined)}
        min={item.min ?? -1}
        max={item.max ?? MAX_SEED}
        precision={0}
        disabled={item.disabled}
        // Digits only: an empty box lets the engine pick (as -1 does), and the dice fixes a random one.
        inputMode="numeric"
        placeholder="-1 为随机"
        aria-label={item.text}
        className="hf-grow"
      />
      <Tooltip title="随机一个种子">
        <Button
          icon={<ThunderboltOutlined />}
          disabled={item.disabled}
          aria-label="随机种子"
          onClick={() => onChange(Math.floor(Math.random() * (item.max ?? MAX_SEED)))}
        />
      </Tooltip>
    </Space.Compact>
  );
}
