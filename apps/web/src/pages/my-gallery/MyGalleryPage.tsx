import { ComingSoon } from '../../components/ComingSoon';

export default function MyGalleryPage() {
  return <ComingSoon title="我的作品" description="你生成的作品会保存在这里，功能即将上线" />;
}
