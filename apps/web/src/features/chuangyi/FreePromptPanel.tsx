import { Form, Input } from 'antd';
import { useChuangyi } from '../../stores/chuangyi';

const PROMPT_MAX = 1000;

/** 画面描述 and 不想出现的内容, typed freely; commas and line breaks separate the words. */
export function FreePromptPanel() {
  const prompt = useChuangyi((state) => state.prompt);
  const negativePrompt = useChuangyi((state) => state.negativePrompt);
  const setPrompt = useChuangyi((state) => state.setPrompt);
  const setNegativePrompt = useChuangyi((state) => state.setNegativePrompt);

  return (
    <section className="hf-panel hf-chuangyi-panel" aria-label="画面描述">
      <Form layout="vertical" component="div">
        <Form.Item label="画面描述" htmlFor="hf-free-prompt" extra="用逗号或换行分隔，例如：水墨画，远山，云雾缭绕">
          <Input.TextArea
            id="hf-free-prompt"
            value={prompt}
            onChange={(event) => setPrompt(event.target.value)}
            autoSize={{ minRows: 3, maxRows: 8 }}
            maxLength={PROMPT_MAX}
            showCount
            placeholder="描述你想要的画面…"
            autoFocus
          />
        </Form.Item>
        <Form.Item label="不想出现的内容" htmlFor="hf-free-negative">
          <Input.TextArea
            id="hf-free-negative"
            value={negativePrompt}
            onChange={(event) => setNegativePrompt(event.target.value)}
            autoSize={{ minRows: 2, maxRows: 5 }}
            maxLength={PROMPT_MAX}
            placeholder="例如：模糊，水印，文字"
          />
        </Form.Item>
      </Form>
    </section>
  );
}
