import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const root = fileURLToPath(new URL('.', import.meta.url));

// The merchant dashboard, served by the gateway under /dashboard (dist/apps/dashboard). Only
// external, hashed script files: the page's Content-Security-Policy allows no inline script.
export default defineConfig({
  root,
  base: '/dashboard/',
  plugins: [react()],
  build: {
    outDir: fileURLToPath(new URL('../../dist/apps/dashboard', import.meta.url)),
    emptyOutDir: true,
    modulePreload: { polyfill: false },
    chunkSizeWarningLimit: 1500,
  },
});
