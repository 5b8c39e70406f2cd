import { CheckOutlined } from '@ant-design/icons';
import { type ComboPlan, formatFen } from '@huafang/contracts';
import { Badge, Button } from 'antd';

/**
 * One plan of the store: price, credits (and how long they last, for a plan with a validity) and what it includes; the recommended one wears a 推荐 ribbon. `onBuy` is
 * given when the plan is sold online (a channel is configured and the plan is purchasable).
 */
export function ComboPlanCard({ plan, onBuy }: { plan: ComboPlan; onBuy?: () => void }) {
  const card = (
    <article className={plan.recommended ? 'hf-plan hf-plan-recommended' : 'hf-plan'} aria-label={plan.name}>
      <h3 className="hf-plan-name">{plan.name}</h3>
      {plan.description && <p className="hf-plan-desc">{plan.description}</p>}
      <div className="hf-plan-price">{formatFen(plan.priceFen)}</div>
      <div className="hf-plan-credits">含 {plan.credits.toLocaleString('zh-CN')} 点算力</div>
      {plan.validityDays !== null && <div className="hf-plan-validity">有效期 {plan.validityDays} 天</div>}
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
      {onBuy && (
        <Button
          type={plan.recommended ? 'primary' : 'default'}
          block
          className="hf-plan-buy"
          onClick={onBuy}
          aria-label={`购买${plan.name}`}
        >
          立即购买
        </Button>
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
