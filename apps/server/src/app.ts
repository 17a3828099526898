import fs from 'node:fs';
import path from 'node:path';
import fastifyCookie from '@fastify/cookie';
import fastifyHelmet from '@fastify/helmet';
import fastifyRateLimit from '@fastify/rate-limit';
import fastifyStatic from '@fastify/static';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import fastifyWebsocket from '@fastify/websocket';
import { errorCatalogue } from '@platform/contracts';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import { jsonSchemaTransform, serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { AppContext, ModuleParts } from './context.ts';
import { clientPages } from './http/client-pages.ts';
import { clientErrorHandler, frameworkErrors, registerErrorHandling } from './http/error-handler.ts';
import { type FairUseDeps, registerFairUse } from './http/fair-use.ts';
import { registerNulGuard } from './http/nul-guard.ts';
import { accessTokenKey, verifyAccessToken } from './modules/auth/access-tokens.ts';
import { composeModules, registrationOrder, type Services } from './modules/index.ts';
import { websocketPluginOptions } from './realtime/routes.ts';

/** Request bodies larger than this are refused before parsing (KYC uploads get their own limit). */
const BODY_LIMIT_BYTES = 1_048_576;
/** Paths that belong to the API: a miss there is a JSON 404, never the client's index.html. */
const API_PREFIXES = ['/v1/', '/api/', '/ws', '/docs', '/health', '/sandbox/'];

/** The app, and the services its modules were built into (tests drive workers through them). */
export type BuiltApp = { app: FastifyInstance; services: Services };

export async function buildApp(context: AppContext): Promise<BuiltApp> {
  const { config, log } = context;
  const app = Fastify({
    loggerInstance: log as FastifyBaseLogger,
    trustProxy: config.trustProxy,
    bodyLimit: BODY_LIMIT_BYTES,
    frameworkErrors,
    clientErrorHandler,
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandling(app);
  registerNulGuard(app);
  // The API speaks JSON only; plain text would otherwise reach the schemas as a string.
  app.removeContentTypeParser('text/plain');

  await app.register(fastifyHelmet, {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        // React sets inline style attributes; nothing else inline is allowed.
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        connectSrc: ["'self'", 'ws:', 'wss:'],
        fontSrc: ["'self'", 'data:'],
        objectSrc: ["'none'"],
        frameAncestors: ["'none'"],
        upgradeInsecureRequests: null,
      },
    },
    crossOriginEmbedderPolicy: false,
    hsts: config.publicUrl.startsWith('https://'),
  });
  await app.register(fastifyCookie);
  await app.register(fastifyRateLimit, {
    global: false,
    // Each route names its own limit; the error handler turns a 429 into the error envelope.
    errorResponseBuilder: (_request, context) => {
      const error = new Error(errorCatalogue.RATE_LIMITED.message) as Error & { statusCode: number };
      error.statusCode = context.statusCode;
      return error;
    },
  });
  if (config.rateLimitEnabled) registerFairUse(app, fairUseDeps(context));

  await app.register(fastifySwagger, {
    openapi: {
      openapi: '3.0.3',
      info: { title: 'Meridian API', description: 'Crypto trading and wallet platform', version: '0.1.0' },
      components: {
        securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
      },
    },
    transform: jsonSchemaTransform,
  });
  await app.register(fastifySwaggerUi, { routePrefix: '/docs', staticCSP: true });
  await app.register(fastifyWebsocket, websocketPluginOptions);

  const services = await composeModules(context);
  for (const module of registrationOrder(services)) {
    await app.register(async (scope) => registerModule(scope, module));
  }

  await registerClient(app, config.webDistDir);
  return { app, services };
}

/** Fair use meters the API; a token's account is proven by its signature alone (a cached HMAC, no query). */
function fairUseDeps(context: AppContext): FairUseDeps {
  const signing = accessTokenKey(context.secrets.jwtSecret, context.config.accessTokenTtlSeconds);
  return {
    limits: context.config.fairUse,
    clock: context.clock,
    accountOf: async (token) => {
      const account = await verifyAccessToken(signing, token, context.clock());
      return account.ok ? account.value.id : undefined;
    },
    isMetered: isApiPath,
  };
}

function isApiPath(url: string): boolean {
  const pathname = url.split('?')[0] ?? '/';
  return API_PREFIXES.some((prefix) => pathname === prefix.replace(/\/$/, '') || pathname.startsWith(prefix));
}

/** A module's routes and worker hooks, in a Fastify scope of its own. */
async function registerModule(scope: FastifyInstance, { routes, start, stop, listening }: ModuleParts): Promise<void> {
  if (start) {
    scope.addHook('onReady', async () => {
      await start();
    });
  }
  if (stop) {
    scope.addHook('onClose', async () => {
      await stop();
    });
  }
  if (listening) {
    scope.addHook('onListen', async () => {
      listening(scope.server.address());
    });
  }
  await routes?.(scope);
}

/** Serves the built client: hashed assets cached for good, index.html for every other page path. */
async function registerClient(app: FastifyInstance, distDir: string): Promise<void> {
  const indexFile = path.join(distDir, 'index.html');
  const hasClient = fs.existsSync(indexFile);
  const pages = hasClient ? clientPages(distDir) : null;
  if (hasClient) {
    await app.register(fastifyStatic, {
      root: distDir,
      wildcard: false,
      index: false,
      setHeaders: (res, filePath) => {
        const immutable = filePath.includes(`${path.sep}assets${path.sep}`);
        res.header('Cache-Control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
  }
  app.setNotFoundHandler((request, reply) => {
    const url = request.url.split('?')[0] ?? '/';
    if (!isApiPath(url) && hasClient && (request.method === 'GET' || request.method === 'HEAD')) {
      return reply.header('Cache-Control', 'no-cache').type('text/html').send(pages?.htmlFor(url));
    }
    return reply.status(404).send({ error: { code: 'NOT_FOUND', message: `No route for ${request.method} ${url}` } });
  });
}
