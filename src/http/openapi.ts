// The OpenAPI 3 document generated from the route schemas, and a browsable reference at /docs (offline).
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import fp from 'fastify-plugin';
import type { App } from './types.ts';

export const openapiPlugin = fp(async (app: App) => {
  await app.register(swagger, {
    openapi: {
      openapi: '3.0.3',
      info: {
        title: 'Tessera REST API v2',
        version: '2.0.0',
        description: 'Translation memories and documents, compatible with the Lilt REST API v2.',
      },
      components: {
        securitySchemes: {
          apiKeyQuery: { type: 'apiKey', in: 'query', name: 'key' },
          basicAuth: { type: 'http', scheme: 'basic' },
          bearerAuth: { type: 'http', scheme: 'bearer' },
        },
      },
      security: [{ apiKeyQuery: [] }, { basicAuth: [] }, { bearerAuth: [] }],
    },
  });
  // The UI's assets ship inside the package and are served locally: no CDN, no network.
  await app.register(swaggerUi, { routePrefix: '/docs' });
  app.get('/v2/openapi.json', { schema: { hide: true } }, async () => app.swagger());
});
