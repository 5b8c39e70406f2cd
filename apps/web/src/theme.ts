import type { ThemeConfig } from 'antd';

export const FONT_FAMILY =
  "-apple-system, BlinkMacSystemFont, 'PingFang SC', 'Hiragino Sans GB', 'Microsoft YaHei', 'Noto Sans CJK SC', 'Noto Sans SC', 'Source Han Sans SC', 'Helvetica Neue', Arial, sans-serif";

/** A light theme with an indigo accent, shared by every screen. */
export const theme: ThemeConfig = {
  token: {
    colorPrimary: '#5b5bd6',
    colorInfo: '#5b5bd6',
    colorLink: '#5b5bd6',
    borderRadius: 8,
    fontFamily: FONT_FAMILY,
    colorBgLayout: '#f6f6fb',
  },
  components: {
    Layout: { headerBg: '#ffffff', headerHeight: 60, headerPadding: '0 24px', siderBg: '#ffffff' },
    Menu: { itemBg: 'transparent', horizontalLineHeight: '58px' },
    Modal: { titleFontSize: 18 },
  },
};
