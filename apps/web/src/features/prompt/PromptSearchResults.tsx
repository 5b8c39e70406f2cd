import { useQuery } from '@tanstack/react-query';
import { Empty, Skeleton } from 'antd';
import type { PromptVariant } from '../../services/prompt';
import { promptQueries } from '../../services/prompt';
import { PromptWordTag } from './PromptWordTag';
import type { PickedWord } from './use-prompt-picker';
import './prompt-library.css';

const SEARCH_PAGE_SIZE = 100;

interface PromptSearchResultsProps {
  variant: PromptVariant;
  helpUrlFlag: string;
  keyword: string;
  selected: ReadonlySet<string>;
  onToggle: (word: PickedWord, checked: boolean) => void;
}

/** Words matching the keyword in Chinese or English (GET /api/prompt/list). */
export function PromptSearchResults({ variant, helpUrlFlag, keyword, selected, onToggle }: PromptSearchResultsProps) {
  const list = useQuery(promptQueries.list(variant, { helpUrlFlag, keyword, current: 1, pageSize: SEARCH_PAGE_SIZE }));

  if (list.isPending) return <Skeleton active paragraph={{ rows: 4 }} />;
  const words = list.data?.list ?? [];
  if (words.length === 0) return <Empty description={`没有找到与「${keyword}」相关的提示词`} />;
  return (
    <div className="hf-word-list">
      {words.map((word) => (
        <PromptWordTag
          key={word.id}
          label={word.label}
          text={word.text}
          checked={selected.has(word.id)}
          onToggle={(checked) => onToggle({ id: word.id, label: word.label, text: word.text }, checked)}
        />
      ))}
    </div>
  );
}
