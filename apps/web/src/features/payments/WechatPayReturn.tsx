import { Button, Result, Spin } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { openComboStore } from '../store/combo-store-state';
import { useCheckout } from './use-checkout';
import { takeState, wechatTargetOf } from './wechat-jsapi';

/**
 * WeChat's browser back from the official account's silent authorisation (WECHAT_RETURN_PATH?…&code=&state=): the
 * code becomes the buyer's openid, the plan or order named in the address is ordered for it, and WeChat's payment
 * sheet opens; afterwards the result page takes over.
 */
export function WechatPayReturn() {
  const [search] = useSearchParams();
  const navigate = useNavigate();
  const checkout = useCheckout();
  const { payWithCode } = checkout;
  const [problem, setProblem] = useState<string | null>(null);
  const started = useRef(false);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    const target = wechatTargetOf(search);
    const code = search.get('code');
    if (!target || !code) setProblem('支付信息不完整，请重新发起支付');
    else if (!takeState(search.get('state'))) setProblem('微信授权已失效，请重新发起支付');
    else void payWithCode(target, code);
  }, [search, payWithCode]);

  const failed = problem ?? checkout.error;
  if (failed) {
    return (
      <Result
        status="warning"
        title="未能打开微信支付"
        subTitle={failed}
        extra={[
          <Button key="store" type="primary" onClick={openComboStore}>
            回到套餐商店
          </Button>,
          <Button key="orders" onClick={() => void navigate('/account/orders')}>
            我的订单
          </Button>,
        ]}
      />
    );
  }
  return <Result icon={<Spin size="large" />} title="正在打开微信支付…" subTitle="请在微信弹出的支付窗口中完成付款" />;
}
