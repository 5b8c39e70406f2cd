import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { chineseAria } from './build/chinese-aria';

export default defineConfig({
  plugins: [react(), chineseAria()],
  base: '/',
  server: {
    proxy: { '/api': 'http://localhost:3000' },
  },
  build: {
    outDir: 'dist',
    // antd is one large vendor chunk by design; the warning would only be noise.
    chunkSizeWarningLimit: 1500,
  },
});
