import { CheckOutlined, CopyOutlined } from '@ant-design/icons';
import { Alert, Button, Input, Space } from 'antd';
import type { TextAreaRef } from 'antd/es/input/TextArea';
import { useRef, useState } from 'react';
import { toast } from '../../services/notices';
import '../../common/dialog-actions.css';

interface SecretRevealProps {
  /** What the secret is, as the field's label: API 密钥, 签名密钥. */
  label: string;
  secret: string;
  /** The warning under 请立即复制并妥善保存: shown once, and what to do once it is lost. */
  warning: string;
  onDone: () => void;
}

/**
 * A secret the server returns once and keeps no copy of: shown in full with 复制 and a warning that it will not be
 * shown again. The text stays selectable, so it can be copied by hand where the clipboard is refused.
 */
export function SecretReveal({ label, secret, warning, onDone }: SecretRevealProps) {
  const field = useRef<TextAreaRef>(null);
  const [copied, setCopied] = useState(false);

  async function copy() {
    try {
      await navigator.clipboard.writeText(secret);
      setCopied(true);
      toast('已复制到剪贴板', 'success');
    } catch {
      // No secure context or no permission: select it so a long press or Ctrl+C copies it.
      field.current?.resizableTextArea?.textArea.select();
      toast('无法自动复制，已选中密钥，请手动复制');
    }
  }

  return (
    <div className="hf-oa-reveal">
      <Alert type="warning" showIcon title="请立即复制并妥善保存" description={warning} />
      <label className="hf-oa-reveal-label" htmlFor="hf-oa-secret">
        {label}
      </label>
      <Input.TextArea
        id="hf-oa-secret"
        ref={field}
        className="hf-oa-secret"
        value={secret}
        readOnly
        autoSize
        onFocus={(event) => event.currentTarget.select()}
      />
      <Space className="hf-dialog-actions">
        <Button icon={copied ? <CheckOutlined /> : <CopyOutlined />} onClick={() => void copy()} autoFocus>
          {copied ? '已复制' : '复制'}
        </Button>
        <Button type="primary" onClick={onDone}>
          我已保存，关闭
        </Button>
      </Space>
    </div>
  );
}
