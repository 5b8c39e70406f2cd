import { CheckOutlined } from '@ant-design/icons';
import { type ComboPlan, formatFen } from '@huafang/contracts';
import { Badge } from 'antd';

/** One plan of the store: price, credits and what it includes; the recommended one wears a 推荐 ribbon. */
export function ComboPlanCard({ plan }: { plan: ComboPlan }) {
  const card = (
    <article className={plan.recommended ? 'hf-plan hf-plan-recommended' : 'hf-plan'} aria-label={plan.name}>
      <h3 className="hf-plan-name">{plan.name}</h3>
      {plan.description && <p className="hf-plan-desc">{plan.description}</p>}
      <div className="hf-plan-price">{formatFen(plan.priceFen)}</div>
      <div className="hf-plan-credits">含 {plan.credits.toLocaleString('zh-CN')} 点算力</div>
      {plan.features.length > 0 && (
        <ul className="hf-plan-features">
          {plan.features.map((feature) => (
            <li key={feature}>
              <CheckOutlined className="hf-plan-check" />
              {feature}
            </li>
          ))}
        </ul>
      )}
    </article>
  );
  return plan.recommended ? (
    <Badge.Ribbon text="推荐" color="volcano">
      {card}
    </Badge.Ribbon>
  ) : (
    card
  );
}
