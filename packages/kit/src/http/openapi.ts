/**
 * The OpenAPI 3 document at /docs/openapi.json, generated from the route schemas, and a readable
 * reference of the same document at /docs (Swagger UI, served from the package: no CDN, works
 * offline).
 */
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';

export interface OpenApiInfo {
  name: string;
  version: string;
  description?: string;
}

export async function installOpenApi(app: FastifyInstance, info: OpenApiInfo): Promise<void> {
  // Added before swagger so the document shows which scope each authenticated route needs.
  app.addHook('onRoute', (route) => {
    const scope = route.config?.auth?.scope;
    if (scope === undefined) return;
    route.schema = { ...route.schema, security: [{ bearerAuth: [scope] }] };
  });

  await app.register(swagger, {
    openapi: {
      info: { title: info.name, version: info.version, description: info.description },
      components: {
        securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
      },
    },
  });

  app.get('/docs/openapi.json', { schema: { hide: true } }, () => app.swagger());
  await app.register(swaggerUi, {
    routePrefix: '/docs',
    // The page and its scripts are served from the package: it works without a network.
    uiConfig: { deepLinking: true, displayRequestDuration: true },
  });
}
