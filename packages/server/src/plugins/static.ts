import fs from 'node:fs';
import path from 'node:path';
import fp from 'fastify-plugin';
import fastifyStatic from '@fastify/static';

// Serves the built SPA with history fallback: `/` and any non-API GET that is not a file get
// index.html.
export const staticPlugin = fp(
  async (app, opts: { root: string }) => {
    if (!fs.existsSync(path.join(opts.root, 'index.html'))) {
      app.log.warn({ root: opts.root }, 'web build not found; run `npm run build` to serve the portal');
      return;
    }
    await app.register(fastifyStatic, {
      root: opts.root,
      wildcard: true,
      index: 'index.html',
      setHeaders(res, filePath) {
        const isHashedAsset = filePath.includes(`${path.sep}assets${path.sep}`);
        res.header('Cache-Control', isHashedAsset ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
    app.decorate('sendSpa', (reply) => reply.header('Cache-Control', 'no-cache').sendFile('index.html'));
  },
  { name: 'static', dependencies: ['errors'] },
);
