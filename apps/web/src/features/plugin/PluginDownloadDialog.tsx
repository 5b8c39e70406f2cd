import { DownloadOutlined } from '@ant-design/icons';
import { Button, Modal, Typography } from 'antd';
import './plugin.css';

/** Served without login; the answer names the file (huafang-ps-plugin-<version>.ccx). */
export const PLUGIN_DOWNLOAD_URL = '/api/download/ps/plugins';

interface PluginDownloadDialogProps {
  open: boolean;
  onClose: () => void;
}

/** 插件下载: the Photoshop plugin package with the three steps of installing it. */
export function PluginDownloadDialog({ open, onClose }: PluginDownloadDialogProps) {
  const server = window.location.origin;
  return (
    <Modal
      title="插件下载"
      open={open}
      onCancel={onClose}
      width={520}
      footer={[
        <Button key="close" onClick={onClose}>
          关闭
        </Button>,
        <Button key="download" type="primary" icon={<DownloadOutlined />} href={PLUGIN_DOWNLOAD_URL} download>
          下载插件
        </Button>,
      ]}
    >
      <div className="hf-plugin-intro">
        <Typography.Text strong>画坊 Photoshop 插件</Typography.Text>
        <Typography.Paragraph type="secondary" className="hf-plugin-note">
          在 Photoshop 里浏览「我的作品」并置入文档，或把正在编辑的文档发送到创作页继续生成。适用于 Photoshop 2022
          (23.3) 及以上，安装方法见插件说明。
        </Typography.Paragraph>
      </div>
      <ol className="hf-stack-list hf-plugin-steps">
        <li>
          <strong>下载安装包</strong>
          <span>点击下方「下载插件」，得到 .ccx 文件</span>
        </li>
        <li>
          <strong>双击安装</strong>
          <span>已安装 Creative Cloud 桌面应用时双击 .ccx 即可；提示来自未验证的开发者时选择继续安装</span>
        </li>
        <li>
          <strong>在 Photoshop 中登录</strong>
          <span>
            菜单「增效工具 → 画坊」打开面板，服务器地址填写{' '}
            <Typography.Text code copyable>
              {server}
            </Typography.Text>
            ，再用画坊账号登录
          </span>
        </li>
      </ol>
    </Modal>
  );
}
