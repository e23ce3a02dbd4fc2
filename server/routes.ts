import type { FastifyPluginAsync } from 'fastify';
import { healthRoutes } from './health/routes.ts';
import { sandboxIndexRoutes } from './sandbox/routes.ts';

/**
 * Every resource's routes, mounted under /api. A resource is a folder in server/ with its
 * routes (schemas from contract/), rules and queries; add its plugin here.
 */
export const apiRoutes: FastifyPluginAsync = async (app) => {
  await app.register(healthRoutes);
};

/** Sandbox routes: mounted under /api/sandbox only when the sandbox is on. */
export const sandboxRoutes: FastifyPluginAsync = async (app) => {
  await app.register(sandboxIndexRoutes);
};
