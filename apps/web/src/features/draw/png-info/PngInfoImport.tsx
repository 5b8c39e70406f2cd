import { FileImageOutlined } from '@ant-design/icons';
import { Alert, Button } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { type PngInfoOutcome, usePngInfoImport } from './use-png-info-import';
import './png-info.css';

const hasFiles = (event: DragEvent) => Array.from(event.dataTransfer?.types ?? []).includes('Files');

function OutcomeAlert({ outcome, onClose }: { outcome: PngInfoOutcome; onClose: () => void }) {
  const closable = { onClose, 'aria-label': '关闭图片信息提示' };
  if (outcome.kind === 'empty') {
    return (
      <Alert
        type="warning"
        showIcon
        closable={closable}
        title={`「${outcome.fileName}」里没有生成信息`}
        description="只能读取 画坊、AUTOMATIC1111 / Forge 或 ComfyUI 生成、未经压缩转存的 PNG 图片。"
      />
    );
  }
  if (outcome.kind === 'failed') {
    return <Alert type="error" showIcon closable={closable} title={outcome.message} />;
  }
  return (
    <Alert
      type={outcome.unmatched.length > 0 ? 'warning' : 'success'}
      showIcon
      closable={closable}
      title={`已读取 ${outcome.source} 图片的生成信息`}
      description={
        <>
          {outcome.filled.length > 0 && <div>已填入：{outcome.filled.join('、')}</div>}
          {outcome.unmatched.map((line) => (
            <div key={line}>{line}</div>
          ))}
        </>
      }
    />
  );
}

/**
 * 读取图片信息 on /draw: pick a PNG, or drop one anywhere on the page (drops an upload field takes stay there), and
 * its prompts, parameters, model and LoRAs fill the form.
 */
export function PngInfoImport() {
  const { importFile, reading, outcome, dismiss } = usePngInfoImport();
  const input = useRef<HTMLInputElement>(null);
  const [dragging, setDragging] = useState(false);
  const importRef = useRef(importFile);
  importRef.current = importFile;

  useEffect(() => {
    let depth = 0;
    const enter = (event: DragEvent) => {
      if (!hasFiles(event)) return;
      depth += 1;
      setDragging(true);
    };
    const leave = () => {
      depth = Math.max(0, depth - 1);
      if (depth === 0) setDragging(false);
    };
    const over = (event: DragEvent) => {
      if (!hasFiles(event)) return;
      // Over an upload field (it prevented the default) the file goes there, not to us.
      setDragging(!event.defaultPrevented);
      if (!event.defaultPrevented) event.preventDefault();
    };
    const drop = (event: DragEvent) => {
      depth = 0;
      setDragging(false);
      // An upload field (底图, ControlNet 参考图) that took the file has already prevented the default.
      if (event.defaultPrevented || !hasFiles(event)) return;
      event.preventDefault();
      const file = event.dataTransfer?.files[0];
      if (file) void importRef.current(file);
    };
    window.addEventListener('dragenter', enter);
    window.addEventListener('dragleave', leave);
    window.addEventListener('dragover', over);
    window.addEventListener('drop', drop);
    return () => {
      window.removeEventListener('dragenter', enter);
      window.removeEventListener('dragleave', leave);
      window.removeEventListener('dragover', over);
      window.removeEventListener('drop', drop);
    };
  }, []);

  return (
    <section className="hf-png-info" aria-label="读取图片信息">
      <div className="hf-png-info-bar">
        <Button icon={<FileImageOutlined />} loading={reading} onClick={() => input.current?.click()}>
          读取图片信息
        </Button>
        <span className="hf-png-info-hint">选择或拖入一张 AI 生成的 PNG，自动填入提示词和参数</span>
        <input
          ref={input}
          type="file"
          accept="image/png"
          hidden
          aria-label="选择 PNG 图片"
          data-testid="png-info-input"
          onChange={(event) => {
            const file = event.target.files?.[0];
            event.target.value = '';
            if (file) void importFile(file);
          }}
        />
      </div>
      {outcome && <OutcomeAlert outcome={outcome} onClose={dismiss} />}
      {dragging && (
        <div className="hf-png-info-drop" aria-hidden="true">
          松开鼠标，读取图片里的提示词和参数
        </div>
      )}
    </section>
  );
}
