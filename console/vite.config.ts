// The console's build: React with babel-plugin-relay (each graphql`` tag becomes an import of the
// artifact relay-compiler generated into src/__generated__), served by the service at /console/.
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const root = fileURLToPath(new URL('.', import.meta.url));

export default defineConfig({
  root,
  base: '/console/',
  logLevel: 'warn',
  plugins: [react({ babel: { plugins: [['relay', { artifactDirectory: `${root}src/__generated__`, eagerEsModules: true }]] } })],
  // `npm run console:dev`: Vite's dev server with the API of a service started by `npm start`.
  server: { port: 5173, strictPort: true, proxy: { '/graphql': 'http://localhost:3000', '/main': 'http://localhost:3000' } },
  build: { outDir: `${root}dist`, emptyOutDir: true, sourcemap: false, chunkSizeWarningLimit: 1000 },
});
