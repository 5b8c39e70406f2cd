import { EyeInvisibleOutlined } from '@ant-design/icons';
import './work-prompts.css';

interface WorkPromptsProps {
  /** null: the author hid the prompts. */
  prompt: string | null;
  negativePrompt: string | null;
  /** The prompts as written (Chinese) when the model read them translated; null when it read them as written. */
  sourcePrompt?: string | null;
  sourceNegativePrompt?: string | null;
}

/**
 * The prompts of a work: as written, with the English the model read beneath when it read a translation;
 * selectable, so they can be copied by hand too.
 */
export function WorkPrompts({ prompt, negativePrompt, sourcePrompt, sourceNegativePrompt }: WorkPromptsProps) {
  if (prompt === null) {
    return (
      <div className="hf-work-hidden-prompt">
        <EyeInvisibleOutlined /> 作者隐藏了提示词
      </div>
    );
  }
  return (
    <div className="hf-work-prompts">
      <PromptSection label="正向提示词" read={prompt} written={sourcePrompt ?? null} />
      {negativePrompt && (
        <PromptSection label="反向提示词" read={negativePrompt} written={sourceNegativePrompt ?? null} negative />
      )}
    </div>
  );
}

function PromptSection({
  label,
  read,
  written,
  negative = false,
}: {
  label: string;
  read: string;
  written: string | null;
  negative?: boolean;
}) {
  const className = negative ? 'hf-work-prompt hf-work-prompt-negative' : 'hf-work-prompt';
  return (
    <section aria-label={label}>
      <div className="hf-work-label">{label}</div>
      <p className={className}>{written ?? (read || '（无）')}</p>
      {written !== null && (
        <p className="hf-work-prompt-english">
          <span className="hf-work-prompt-english-label">模型读取的英文</span>
          {read}
        </p>
      )}
    </section>
  );
}
