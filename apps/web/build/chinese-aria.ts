import type { Plugin } from 'vite';

/**
 * Accessible names that antd's building blocks hard-code in English, rewritten at build time: a screen reader
 * would otherwise speak "delete 删除", "Increase Value" or "Tab 1 of 4" in the middle of the Chinese UI, and no
 * prop or locale reaches these strings.
 *
 * - @ant-design/icons names every icon after itself (`aria-label="delete"`); icons are decorative beside their
 *   text, so an icon without an `aria-label` of ours is hidden from assistive technology instead.
 * - rc-input-number's step handles, rc-segmented's group and rc-tabs' position announcement get Chinese words;
 *   Input.Search's icon-only button and Pagination's arrow buttons, which have no name at all, get one.
 *
 * Each rewrite must find its text: a library upgrade that moves it fails the build instead of silently
 * bringing the English back.
 */
const ICON_UNLABELLED = {
  from: /"aria-label": icon\.name/,
  to: '"aria-hidden": props["aria-label"] === undefined && props["aria-labelledby"] === undefined ? true : undefined',
};

const REWRITES: { module: string; from: string | RegExp; to: string }[] = [
  // Our imports draw icons with AntdIcon; antd's own components use the two-tone-free AntdIconLight. The server's
  // bundle of the public pages (vite build --ssr) also reaches the CommonJS copies under lib/.
  { module: '@ant-design/icons/es/components/AntdIcon.js', ...ICON_UNLABELLED },
  { module: '@ant-design/icons/es/components/AntdIconLight.js', ...ICON_UNLABELLED },
  { module: '@ant-design/icons/lib/components/AntdIcon.js', ...ICON_UNLABELLED },
  { module: '@ant-design/icons/lib/components/AntdIconLight.js', ...ICON_UNLABELLED },
  { module: '@rc-component/input-number/es/StepHandler.js', from: "'Increase Value'", to: "'增加'" },
  { module: '@rc-component/input-number/es/StepHandler.js', from: "'Decrease Value'", to: "'减少'" },
  {
    module: '@rc-component/segmented/es/index.js',
    from: '"aria-label": "segmented control"',
    to: '"aria-label": "选项"',
  },
  {
    module: '@rc-component/tabs/es/TabNavList/TabNode.js',
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the library's template literal, as source text
    from: '`Tab ${currentPosition} of ${tabCount}`',
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the replacement template literal, as source text
    to: '`第 ${currentPosition} 个标签，共 ${tabCount} 个`',
  },
  {
    module: '@rc-component/tabs/es/TabNavList/TabNode.js',
    from: "removeAriaLabel || 'remove'",
    to: "removeAriaLabel || '移除'",
  },
  {
    module: 'antd/es/input/Search.js',
    from: /key: "enterButton",(\s*)onMouseDown/,
    to: 'key: "enterButton", "aria-label": typeof enterButton === "boolean" ? "搜索" : undefined,$1onMouseDown',
  },
  {
    module: 'antd/es/pagination/Pagination.js',
    from: /const prevIcon = \/\*#__PURE__\*\/React\.createElement\("button", \{/,
    to: 'const prevIcon = /*#__PURE__*/React.createElement("button", { "aria-label": "上一页",',
  },
  {
    module: 'antd/es/pagination/Pagination.js',
    from: /const nextIcon = \/\*#__PURE__\*\/React\.createElement\("button", \{/,
    to: 'const nextIcon = /*#__PURE__*/React.createElement("button", { "aria-label": "下一页",',
  },
];

/** The rewrite as a plain transform: Vite runs it on the build, and the dev server's dependency pre-bundling too. */
export function chineseAria(): Plugin {
  return {
    name: 'huafang-chinese-aria',
    transform(code: string, id: string) {
      const path = id.split('?')[0]!.replaceAll('\\', '/');
      const rewrites = REWRITES.filter((rewrite) => path.endsWith(`/node_modules/${rewrite.module}`));
      if (rewrites.length === 0) return null;
      let result = code;
      for (const rewrite of rewrites) {
        const found = typeof rewrite.from === 'string' ? result.includes(rewrite.from) : rewrite.from.test(result);
        if (!found)
          this.error(`${rewrite.module} no longer contains ${String(rewrite.from)}: update build/chinese-aria.ts`);
        result = result.replace(rewrite.from, rewrite.to);
      }
      return { code: result, map: null };
    },
  };
}
