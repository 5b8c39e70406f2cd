import { Tag } from 'antd';

const FEATURED = [
  { name: '国风插画', desc: '水墨、工笔与新国潮', tone: 'hf-tone-ink' },
  { name: '人像写真', desc: '一张照片，多种风格', tone: 'hf-tone-rose' },
  { name: '电商海报', desc: '商品图一键出海报', tone: 'hf-tone-amber' },
  { name: '头像生成', desc: '专属你的个性头像', tone: 'hf-tone-sky' },
];

/** A row of featured templates; real templates arrive with the task issue. */
export function FeaturedTemplates() {
  return (
    <section className="hf-home-section">
      <div className="hf-section-head">
        <h2>精选模板</h2>
        <span className="hf-section-sub">挑一个模板，几秒出图</span>
      </div>
      <div className="hf-template-row">
        {FEATURED.map((item) => (
          <div key={item.name} className={`hf-template-card ${item.tone}`}>
            <div className="hf-template-cover">{item.name.slice(0, 2)}</div>
            <div className="hf-template-info">
              <div className="hf-template-name">
                {item.name}
                <Tag variant="filled">即将上线</Tag>
              </div>
              <div className="hf-template-desc">{item.desc}</div>
            </div>
          </div>
        ))}
      </div>
    </section>
  );
}
