import { EyeInvisibleOutlined } from '@ant-design/icons';

interface WorkPromptsProps {
  /** null: the author hid the prompts. */
  prompt: string | null;
  negativePrompt: string | null;
}

/** The prompts of a work as the engine read them; selectable, so they can be copied by hand too. */
export function WorkPrompts({ prompt, negativePrompt }: WorkPromptsProps) {
  if (prompt === null) {
    return (
      <div className="hf-work-hidden-prompt">
        <EyeInvisibleOutlined /> 作者隐藏了提示词
      </div>
    );
  }
  return (
    <div className="hf-work-prompts">
      <section aria-label="正向提示词">
        <div className="hf-work-label">正向提示词</div>
        <p className="hf-work-prompt">{prompt || '（无）'}</p>
      </section>
      {negativePrompt && (
        <section aria-label="反向提示词">
          <div className="hf-work-label">反向提示词</div>
          <p className="hf-work-prompt hf-work-prompt-negative">{negativePrompt}</p>
        </section>
      )}
    </div>
  );
}
