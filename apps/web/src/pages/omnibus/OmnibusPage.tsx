import { ComingSoon } from '../../components/ComingSoon';

export default function OmnibusPage() {
  return <ComingSoon title="灵感广场" description="这里将展示社区的公开作品，敬请期待" />;
}
