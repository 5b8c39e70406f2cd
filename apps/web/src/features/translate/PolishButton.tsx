import { BulbOutlined } from '@ant-design/icons';
import { Button, Tooltip } from 'antd';
import { hasChinese } from './chinese';
import { usePolish, usePolishAvailable } from './use-polish';

interface PolishButtonProps {
  /** The short idea to expand. */
  text: string;
  onPolished: (result: { chinese: string; english: string }) => void;
}

/** 「AI 润色」: shown only where the server has an LLM; expands a short Chinese idea into a fuller prompt to edit. */
export function PolishButton({ text, onPolished }: PolishButtonProps) {
  const available = usePolishAvailable();
  const polish = usePolish(onPolished);
  if (!available) return null;
  const idea = text.trim();
  return (
    <Tooltip title="把简短的中文想法扩写成完整的画面描述，结果可以再修改">
      <Button
        size="small"
        icon={<BulbOutlined />}
        loading={polish.isPending}
        disabled={!idea || !hasChinese(idea)}
        onClick={() => polish.mutate(idea)}
      >
        AI 润色
      </Button>
    </Tooltip>
  );
}
