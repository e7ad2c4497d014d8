/**
 * The interactive reference (Swagger UI) at /docs, served from the npm package: it loads nothing from
 * a CDN, so it works offline, and its Content-Security-Policy keeps it that way.
 */
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { DOCS_PATH } from '../openapi.js';

const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "base-uri 'self'",
  "connect-src 'self'",
  "frame-ancestors 'self'",
  "img-src 'self' data:",
  "object-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
].join('; ');

export async function docsRoutes(app: FastifyInstance) {
  await app.register(swaggerUi, {
    routePrefix: DOCS_PATH,
    staticCSP: CONTENT_SECURITY_POLICY,
    uiConfig: {
      deepLinking: true,
      displayOperationId: true,
      displayRequestDuration: true,
      defaultModelsExpandDepth: 0,
      docExpansion: 'list',
      tryItOutEnabled: false,
    },
  });
}
