import { ComingSoon } from '../../components/ComingSoon';

export default function ModelPage() {
  return <ComingSoon title="模型管理" description="模型分组、模型列表与提示词库即将上线" />;
}
