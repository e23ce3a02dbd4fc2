import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { vanillaExtractPlugin } from '@vanilla-extract/vite-plugin';
import { compression } from 'vite-plugin-compression2';

// The dev server proxies /api to the API started by `npm run dev` (tsx watch server/main.ts).
const apiPort = process.env.API_PORT ?? '3000';

export default defineConfig({
  plugins: [
    react(),
    vanillaExtractPlugin(),
    // Pre-compressed copies (.br, .gz) next to every asset; the server sends them as-is.
    compression({ algorithms: ['gzip', 'brotliCompress'], threshold: 512 }),
  ],
  server: {
    port: 5173,
    proxy: { '/api': { target: `http://127.0.0.1:${apiPort}`, changeOrigin: false } },
  },
  build: {
    outDir: 'dist',
    sourcemap: false,
    assetsInlineLimit: 0,
  },
});
