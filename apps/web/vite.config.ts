import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { chineseAria } from './build/chinese-aria';
import { lighterAntdForms, precompress } from './build/plugins';

export default defineConfig({
  plugins: [react(), { ...chineseAria(), enforce: 'pre' }, lighterAntdForms(), precompress()],
  base: '/',
  // The dev server pre-bundles antd and the icons before plugins see them, so the rewrite runs there as well.
  optimizeDeps: { rolldownOptions: { plugins: [chineseAria()] } },
  server: {
    proxy: { '/api': 'http://localhost:3000' },
  },
  build: {
    outDir: 'dist',
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
});
