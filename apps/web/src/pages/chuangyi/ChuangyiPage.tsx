import { Empty, Typography } from 'antd';
import { useLocation } from 'react-router';

function promptFromState(state: unknown): string {
  if (typeof state !== 'object' || state === null) return '';
  const { prompt } = state as { prompt?: unknown };
  return typeof prompt === 'string' ? prompt : '';
}

/** 自由创作 (no title, spec §2); the home page hands over its prompt in the navigation state. */
export default function ChuangyiPage() {
  const prompt = promptFromState(useLocation().state);
  return (
    <div className="hf-page">
      <div className="hf-panel hf-empty-panel">
        <Empty
          description={
            <>
              <div>自由创作即将上线，敬请期待</div>
              {prompt && (
                <Typography.Paragraph type="secondary" className="hf-handover">
                  你的描述：{prompt}
                </Typography.Paragraph>
              )}
            </>
          }
        />
      </div>
    </div>
  );
}
