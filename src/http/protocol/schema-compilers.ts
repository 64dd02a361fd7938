// Fastify builds its JSON-schema compilers (ajv, fast-json-stringify) when the app is made,
// loading both packages: a tenth of the server's start-up. No route of ours declares a schema
// (answers are rendered in render/ and checked against the OpenAPI document by the tests), so
// the compilers are loaded when something first asks for one, which is never, or a plugin.
import { createRequire } from 'node:module';
import type { FastifyServerOptions } from 'fastify';

type Factories = NonNullable<NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']>;

const require = createRequire(import.meta.url);

/** A compiler factory whose package is required on its first use. */
function onFirstUse<F extends (...args: never[]) => unknown>(name: string): F {
  let factory: F | undefined;
  return ((...args: Parameters<F>) => {
    factory ??= (require(name) as () => F)();
    return factory(...args);
  }) as F;
}

export const LAZY_SCHEMA_COMPILERS: { compilersFactory: Factories } = {
  compilersFactory: {
    buildValidator: onFirstUse<NonNullable<Factories['buildValidator']>>('@fastify/ajv-compiler'),
    buildSerializer: onFirstUse<NonNullable<Factories['buildSerializer']>>('@fastify/fast-json-stringify-compiler'),
  },
};
