import { Empty } from 'antd';

/** 最新作品: the public works masonry arrives with the works API. */
export function LatestWorks() {
  return (
    <section className="hf-home-section">
      <div className="hf-section-head">
        <h2>最新作品</h2>
        <span className="hf-section-sub">来自社区的最新创作</span>
      </div>
      <div className="hf-panel hf-empty-panel">
        <Empty description="还没有公开作品，快来创作第一幅吧" />
      </div>
    </section>
  );
}
