// Vite's build of the web application into web/dist, which the server serves (src/http/web-app.ts).
import { resolve } from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

export default defineConfig({
  root: import.meta.dirname,
  plugins: [react()],
  // `@server/…` is the server's src/, as web/tsconfig.json's paths tell the typecheck and the root tsconfig.json's
  // tell tsx, which runs the web's unit tests.
  resolve: { alias: [{ find: /^@server\//, replacement: `${resolve(import.meta.dirname, '../src')}/` }] },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // Browsers of the last two years: no legacy transforms for a tool used on a desktop.
    target: 'es2022',
    // The editor route's CodeMirror is half the code: it stays in the editor's own chunk.
    chunkSizeWarningLimit: 600,
  },
  server: {
    // `npm run dev:web` proxies the API to a running server; the Origin is rewritten to the server's own, as
    // the server refuses cookie-authenticated writes from another origin.
    proxy: {
      '/v2': {
        target: process.env.TESSERA_URL ?? 'http://127.0.0.1:8080',
        changeOrigin: true,
        configure: (proxy) => {
          proxy.on('proxyReq', (request) => {
            if (request.getHeader('origin'))
              request.setHeader('origin', process.env.TESSERA_URL ?? 'http://127.0.0.1:8080');
          });
        },
      },
    },
    fs: { allow: ['..'] },
  },
});
