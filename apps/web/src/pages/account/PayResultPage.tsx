import { useParams, useSearchParams } from 'react-router';
import { PageHead } from '../../components/PageHead';
import { PayResult } from '../../features/payments/PayResult';

/** /account/orders/:id/result (or /pay/result?orderId=): where Alipay's and WeChat Pay's pages send the buyer back. */
export default function PayResultPage() {
  const [search] = useSearchParams();
  const id = useParams().id ?? search.get('orderId') ?? '';
  return (
    <div className="hf-page">
      <PageHead title="支付结果" />
      <div className="hf-panel">
        <PayResult key={id} orderId={id} />
      </div>
    </div>
  );
}
