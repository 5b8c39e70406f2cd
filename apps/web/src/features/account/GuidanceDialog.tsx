import { Button, Steps } from 'antd';
import { useIsNarrow } from '../../common/use-screen';
import { useSession } from '../../stores/session';
import { AccountModal } from './AccountModal';

/** The draw guidance title for invite code type 01; 开始创作 starts the guided tour of /draw (guidance content). */
export function GuidanceDialog() {
  const closeDialog = useSession((state) => state.closeDialog);
  const openDialog = useSession((state) => state.openDialog);
  // Narrow screens have no left aside: the task card sits at the top of /draw.
  const where = useIsNarrow() ? '页面顶部' : '左侧';
  const close = () => closeDialog('guidanceTitle');
  const start = () => {
    close();
    openDialog('guidanceContent');
  };

  return (
    <AccountModal
      name="guidanceTitle"
      title="新手引导"
      footer={
        <Button type="primary" onClick={start} autoFocus>
          开始创作
        </Button>
      }
      width={460}
      destroyOnHidden={false}
    >
      <p>欢迎来到画坊！三步完成你的第一幅作品：</p>
      <Steps
        orientation="vertical"
        size="small"
        current={-1}
        items={[
          {
            title: '选择模板',
            content: `在${where}的任务卡片点「切换」（还没有模板时点「选择模板」），参数会自动填好`,
          },
          { title: '编辑提示词', content: '在「正向提示词」里用中文描述画面，也可以点「词库」挑选' },
          { title: '点击生成', content: '点页面底部的「生成」，稍等片刻即可看到结果，满意的作品可以发布到灵感广场' },
        ]}
      />
    </AccountModal>
  );
}
