/**
 * The interactive reference (Swagger UI) at /docs, served from the npm package: it loads nothing from
 * a CDN, so it works offline, and its Content-Security-Policy keeps it that way.
 */
import { readFileSync } from 'node:fs';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { compressWhenAsked } from '../compression.js';
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

/** Read from src/ both when run from source and from dist/, like the dashboard's assets. */
const ASSETS = new URL('../../../src/http/assets/', import.meta.url);

export async function docsRoutes(app: FastifyInstance) {
  // Swagger UI's script is 1.4 MB: compressed when the browser asks, as the dashboard's pages are.
  await compressWhenAsked(app);
  await app.register(swaggerUi, {
    routePrefix: DOCS_PATH,
    staticCSP: CONTENT_SECURITY_POLICY,
    // eventplan's name and mark in the top bar and the tab, instead of Swagger's; served by the app, never a CDN.
    theme: {
      title: 'eventplan API reference',
      favicon: [
        {
          filename: 'eventplan.svg',
          rel: 'icon',
          type: 'image/svg+xml',
          sizes: 'any',
          content: readFileSync(new URL('eventplan-favicon.svg', ASSETS)),
        },
      ],
    },
    logo: {
      type: 'image/svg+xml',
      content: readFileSync(new URL('eventplan-logo.svg', ASSETS)),
      href: DOCS_PATH,
    },
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
