import { Form, Input } from 'antd';

interface DraftNameFieldProps {
  /** The field's label and accessible name, e.g. 模板名称. */
  label: string;
  value: string;
  maxLength: number;
  placeholder?: string;
  onChange: (name: string) => void;
}

/** A draft's name (template, step): required, and marked at once while blank, as the draft saves as a whole. */
export function DraftNameField({ label, value, maxLength, placeholder, onChange }: DraftNameFieldProps) {
  const missing = value.trim() === '';
  return (
    <Form.Item
      label={label}
      required
      validateStatus={missing ? 'error' : undefined}
      help={missing ? `请填写${label}` : undefined}
    >
      <Input
        value={value}
        maxLength={maxLength}
        onChange={(event) => onChange(event.target.value)}
        placeholder={placeholder}
        aria-label={label}
      />
    </Form.Item>
  );
}
