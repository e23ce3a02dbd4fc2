import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { vanillaExtractPlugin } from '@vanilla-extract/vite-plugin';
import { compression } from 'vite-plugin-compression2';
import { fileURLToPath } from 'node:url';

// The dev server proxies /api to the API started by `npm run dev` (tsx watch server/main.ts).
const apiPort = process.env.API_PORT ?? '3000';

// React Router's package points every import at its development build (dist/development, with
// its developer warnings and "Hey developer" error screen); the production build beside it differs
// only in ENABLE_DEV_WARNINGS = false, which the minifier then drops (decision 141). Builds use it.
const reactRouterProduction = (file: string) => fileURLToPath(new URL(`./node_modules/react-router/dist/production/${file}`, import.meta.url));

export default defineConfig(({ command }) => ({
  resolve:
    command === 'build'
      ? {
          alias: [
            { find: /^react-router$/, replacement: reactRouterProduction('index.mjs') },
            { find: /^react-router\/dom$/, replacement: reactRouterProduction('dom-export.mjs') },
          ],
        }
      : {},
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
    // dist/.vite/manifest.json: the server names a route's chunks in its HTML (server/spa/preloads.ts).
    manifest: true,
    sourcemap: false,
    assetsInlineLimit: 0,
    rolldownOptions: {
      output: {
        // Everything the first page needs before it runs (what the entry imports statically,
        // transitively) in one chunk: split by which lazy chunks share them, the same code made
        // ~18 files, and gzip over each file alone costs ~5 KiB more than over one (decision 011).
        // The session's code (the auth machine, its implementations, the API client and its errors)
        // loads after the first screen and before every page but the start page: one file too, not
        // four (decision 011). The lazy chunks that call the API import the client from it.
        codeSplitting: {
          groups: [
            // Not the entry (src/main.tsx) itself: with the top-level `await`s of src/boot/ (decision
            // 156) in the group, the bundler would make the group the entry and leave the entry out
            // of the manifest. The entry stays a small file of its own that imports this one.
            { name: 'app', tags: ['$initial'], test: (id: string) => !/\/src\/main\.tsx$|\/index\.html$/.test(id) },
            {
              name: 'session',
              test: /\/(machines\/auth|contract\/errors|src\/api\/(errors|client|auth)|src\/components\/flow|src\/app\/(auth|sessionCode))\.ts$/,
            },
          ],
        },
        // Each lazily loaded locale namespace (src/i18n.ts) is named for its language and namespace,
        // assets/i18n.<lang>-<namespace>-<hash>.js, so the bench and a reader of the network panel
        // can tell the strings apart (decision 011).
        chunkFileNames: (chunk) => {
          const m = /locales\/([a-z]{2})\/([\w-]+)\.json$/.exec(chunk.facadeModuleId ?? '');
          return m ? `assets/i18n.${m[1]}-${m[2]}-[hash].js` : 'assets/[name]-[hash].js';
        },
      },
    },
  },
}));
