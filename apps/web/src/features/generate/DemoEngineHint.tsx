import { InfoCircleOutlined } from '@ant-design/icons';

/** Says plainly that without a GPU backend the pictures are drawn by the demo engine, not an AI model. */
export function DemoEngineHint() {
  return (
    <span className="hf-demo-hint">
      <InfoCircleOutlined /> 未配置 GPU 推理后端时，图片由内置演示引擎（非 AI 模型）绘制，仅用于体验流程
    </span>
  );
}
