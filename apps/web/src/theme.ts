import type { ThemeConfig } from 'antd';

export const FONT_FAMILY =
  "-apple-system, BlinkMacSystemFont, 'PingFang SC', 'Hiragino Sans GB', 'Microsoft YaHei', 'Noto Sans CJK SC', 'Noto Sans SC', 'Source Han Sans SC', 'Helvetica Neue', Arial, sans-serif";

/**
 * 画坊's own tokens, beside antd's. antd emits every token once as a CSS variable (`hfPrimarySoft` becomes
 * `--ant-hf-primary-soft`), and the stylesheets read only those variables: this file is the one place a colour
 * is written. Where antd already has the colour (primary, layout background, white, success…), the stylesheets
 * use antd's variable instead.
 */
const appTokens = {
  hfRadius: 12,
  hfPrimarySoft: '#eeeefc',
  hfText: '#1f1f2e',
  hfTextSecondary: '#6b6b80',
  hfTextMuted: '#9a9aae',
  hfTextFaint: '#a0a0b4',
  hfTextPlaceholder: '#a6a6bd',
  hfSeparator: '#c4c4d4',
  hfBorder: '#ececf3',
  hfBorderDashed: '#d6d4ee',
  hfFill: '#f2f2f8',
  hfFillLight: '#f7f7fb',
  hfFillStrong: '#ebebf3',
  hfFillCool: '#f0f0f7',
  hfFillTint: '#fafaff',
  hfPinnedBg: '#fffdf3',
  hfLogoFrom: '#6d6ae8',
  hfLogoTo: '#a25ce0',
  hfHeroGlowLeft: '#e4e1ff',
  hfHeroGlowRight: '#fbe3f4',
  hfHeroTop: '#f7f6ff',
  hfHeroTitleFrom: '#3d3ab8',
  hfHeroTitleTo: '#8a48d6',
  hfHeroBorder: '#e3e1f7',
  hfIdeaBorder: '#e6e4f6',
  hfIdeaText: '#4b4b63',
  hfDocText: '#33334a',
  /* The cover-less cards' gradients (cover-tone.ts picks one per task). */
  hfToneInkFrom: '#4a5a6a',
  hfToneInkTo: '#9fb2b8',
  hfToneRoseFrom: '#e8779a',
  hfToneRoseTo: '#f6c1a7',
  hfToneAmberFrom: '#f0a23b',
  hfToneAmberTo: '#f7d56b',
  hfToneSkyFrom: '#4f8cf0',
  hfToneSkyTo: '#8fd3f4',
  hfToneJadeFrom: '#2f9e8f',
  hfToneJadeTo: '#9be0c4',
  hfToneVioletFrom: '#6d6ae8',
  hfToneVioletTo: '#c39be8',
};

/**
 * The class that scopes antd's CSS variables. antd puts it on its components' roots; main.tsx also puts it on
 * <html>, so the page's own elements (body, the header, the cards) read the same variables.
 */
export const THEME_CLASS = 'hf-theme';

// antd types `token` as its own tokens; ours ride along (antd passes unknown tokens through to the variables).
const token: ThemeConfig['token'] = {
  colorPrimary: '#5b5bd6',
  colorInfo: '#5b5bd6',
  colorLink: '#5b5bd6',
  borderRadius: 8,
  fontFamily: FONT_FAMILY,
  colorBgLayout: '#f6f6fb',
  ...appTokens,
};

/** A light theme with an indigo accent, shared by every screen. */
export const theme: ThemeConfig = {
  cssVar: { key: THEME_CLASS },
  token,
  components: {
    Layout: { headerBg: '#ffffff', headerHeight: 60, headerPadding: '0 24px', siderBg: '#ffffff' },
    Menu: { itemBg: 'transparent', horizontalLineHeight: '58px' },
    Modal: { titleFontSize: 18 },
  },
};
