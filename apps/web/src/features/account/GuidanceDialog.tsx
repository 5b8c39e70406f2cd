import { Button, Steps } from 'antd';
import { useSession } from '../../stores/session';
import { AccountModal } from './AccountModal';

/** The draw guidance title for invite code type 01; 开始创作 starts the guided tour of /draw (guidance content). */
export function GuidanceDialog() {
  const closeDialog = useSession((state) => state.closeDialog);
  const openDialog = useSession((state) => state.openDialog);
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
          { title: '选择任务', content: '在左侧选择一个任务和模板，参数会自动填好' },
          { title: '编辑提示词', content: '用中文描述画面，也可以从词库里挑选' },
          { title: '点击生成', content: '稍等片刻即可看到结果，满意的作品可以发布到灵感广场' },
        ]}
      />
    </AccountModal>
  );
}
