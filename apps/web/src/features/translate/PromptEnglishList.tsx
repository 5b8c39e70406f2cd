import type { PromptGroupItem } from '@huafang/contracts';
import { useQuery } from '@tanstack/react-query';
import { Input } from 'antd';
import { translateToEnglish } from '../../services/translate';
import { hasChinese } from './chinese';
import './translate.css';

interface PromptEnglishListProps {
  /** What the prompt is, for the accessible names (正向提示词, 反向提示词). */
  label: string;
  group: PromptGroupItem[];
  onChange: (group: PromptGroupItem[]) => void;
}

const textOf = (item: PromptGroupItem) => item.promptText.trim() || item.groupName.trim();

/**
 * Under the chips: each Chinese word with the English a model that reads only English will get, editable. The
 * server's translation is shown until the user writes their own (sent as the word's `english`, which the server
 * uses instead of translating); clearing the box goes back to the translation.
 */
export function PromptEnglishList({ label, group, onChange }: PromptEnglishListProps) {
  const chinese = group.filter((item) => hasChinese(textOf(item)));
  const unedited = chinese.filter((item) => item.english === undefined).map(textOf);
  // One request for all the words: a line each, and line breaks are prompt syntax the translation keeps.
  const preview = useQuery({
    queryKey: ['translate', 'preview', unedited],
    queryFn: async () => {
      const english = (await translateToEnglish(unedited.join('\n'))).split('\n');
      return new Map(unedited.map((text, i) => [text, english[i]?.trim() ?? '']));
    },
    enabled: unedited.length > 0,
    staleTime: Infinity,
    retry: false,
  });
  if (chinese.length === 0) return null;

  const setEnglish = (id: string, english: string) =>
    onChange(
      group.map((item) => {
        if (item.id !== id) return item;
        const { english: _, ...rest } = item;
        return english.trim() ? { ...rest, english } : rest;
      }),
    );

  return (
    <fieldset className="hf-prompt-english" aria-label={`${label}的英文`}>
      <legend className="hf-prompt-english-title">只读英文的模型收到的英文（可修改）</legend>
      {chinese.map((item) => (
        <div key={item.id} className="hf-prompt-english-row">
          <span className="hf-prompt-english-word">{item.groupName}</span>
          <Input
            size="small"
            value={item.english ?? preview.data?.get(textOf(item)) ?? ''}
            placeholder={preview.isLoading ? '翻译中…' : preview.isError ? '翻译失败，生成时由服务器翻译' : ''}
            onChange={(event) => setEnglish(item.id, event.target.value)}
            maxLength={400}
            aria-label={`「${item.groupName}」的英文`}
          />
        </div>
      ))}
    </fieldset>
  );
}
