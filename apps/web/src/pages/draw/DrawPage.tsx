import { ComingSoon } from '../../components/ComingSoon';

export default function DrawPage() {
  return <ComingSoon title="创作" description="在左侧选择任务后即可开始创作，生成功能即将上线" />;
}
