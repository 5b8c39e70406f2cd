import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { chineseAria } from './build/chinese-aria';
import { lighterAntdForms, precompress } from './build/plugins';

export default defineConfig(({ isSsrBuild }) => ({
  plugins: [react(), { ...chineseAria(), enforce: 'pre' }, lighterAntdForms(), precompress()],
  base: '/',
  // The dev server pre-bundles antd and the icons before plugins see them, so the rewrite runs there as well.
  optimizeDeps: { rolldownOptions: { plugins: [chineseAria()] } },
  server: {
    proxy: { '/api': 'http://localhost:3000' },
  },
  // The server's rendering of the public pages (src/ssr/entry-server.tsx, built into dist-ssr) bundles its
  // packages, so antd goes through the same rewrites as in the browser and the HTML matches what hydrates it.
  ssr: { noExternal: true },
  // Node keeps process.env at run time, so the server's bundle would otherwise run React and antd in development
  // mode (slow, and antd's class names would not match the browser's).
  define: isSsrBuild ? { 'process.env.NODE_ENV': JSON.stringify('production') } : {},
  build: {
    outDir: 'dist',
    // Which chunks and style sheets each page needs: the server preloads and inlines them for the pages it renders.
    manifest: true,
    // antd is one large vendor chunk by design; the warning would only be noise.
    chunkSizeWarningLimit: 1500,
    rolldownOptions: {
      // These packages run no code at import time, but do not say so in their package.json; declaring it lets
      // the bundler drop what the first load imports and never uses (antd internals, unused contract schemas).
      treeshake: {
        moduleSideEffects: (id: string) =>
          !(
            /[\\/]packages[\\/]contracts[\\/]src[\\/]/.test(id) ||
            /[\\/]node_modules[\\/](zod|@rc-component|@ant-design[\\/](cssinjs|cssinjs-utils|fast-color|colors))[\\/]/.test(
              id,
            )
          ),
      },
      output: {
        codeSplitting: {
          // Everything the entry and the home page need goes into one chunk: `/` is the usual first visit, and
          // one file compresses far better than the dozens of small shared chunks the automatic split makes.
          // Every other page and dialog stays in its own lazily loaded chunk.
          groups: [{ name: 'app', test: /[\\/]src[\\/](main|pages[\\/]home[\\/]HomePage)\.tsx$/ }],
        },
      },
    },
  },
}));
