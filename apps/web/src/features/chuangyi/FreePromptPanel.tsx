import { Form, Input } from 'antd';
import { useChuangyi } from '../../stores/chuangyi';
import { PolishButton } from '../translate/PolishButton';
import { PromptTranslateBar } from '../translate/PromptTranslateBar';
import { usePromptTranslate } from '../translate/use-prompt-translate';
import '../translate/translate.css';

const PROMPT_MAX = 1000;

/**
 * 画面描述 and 不想出现的内容, typed freely; commas and line breaks separate the words. The server translates
 * Chinese for models that read only English; 翻译 shows that English in place, 「AI 润色」 (with an LLM) expands
 * a short idea.
 */
export function FreePromptPanel() {
  const prompt = useChuangyi((state) => state.prompt);
  const negativePrompt = useChuangyi((state) => state.negativePrompt);
  const setPrompt = useChuangyi((state) => state.setPrompt);
  const setNegativePrompt = useChuangyi((state) => state.setNegativePrompt);
  const promptTranslation = usePromptTranslate(prompt, setPrompt);
  const negativeTranslation = usePromptTranslate(negativePrompt, setNegativePrompt);

  return (
    <section className="hf-panel hf-chuangyi-panel" aria-label="画面描述">
      <Form layout="vertical" component="div">
        <Form.Item
          label="画面描述"
          htmlFor="hf-free-prompt"
          extra={
            <span className="hf-free-prompt-tools">
              <PolishButton text={prompt} onPolished={(result) => setPrompt(result.chinese)} />
              <PromptTranslateBar
                label="画面描述"
                hint="用逗号或换行分隔，例如：水墨画，远山，云雾缭绕；只读英文的模型会自动收到英文"
                translation={promptTranslation}
              />
            </span>
          }
        >
          <Input.TextArea
            id="hf-free-prompt"
            value={prompt}
            onChange={(event) => setPrompt(event.target.value)}
            autoSize={{ minRows: 3, maxRows: 8 }}
            maxLength={PROMPT_MAX}
            showCount
            placeholder="描述你想要的画面…"
            // The answer replaces the text, so typing meanwhile would be lost.
            readOnly={promptTranslation.translating}
            autoFocus
          />
        </Form.Item>
        <Form.Item
          label="不想出现的内容"
          htmlFor="hf-free-negative"
          extra={<PromptTranslateBar label="不想出现的内容" translation={negativeTranslation} />}
        >
          <Input.TextArea
            id="hf-free-negative"
            value={negativePrompt}
            onChange={(event) => setNegativePrompt(event.target.value)}
            autoSize={{ minRows: 2, maxRows: 5 }}
            maxLength={PROMPT_MAX}
            placeholder="例如：模糊，水印，文字"
            readOnly={negativeTranslation.translating}
          />
        </Form.Item>
      </Form>
    </section>
  );
}
