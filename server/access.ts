/**
 * Who may call a route, declared next to the route and published in the OpenAPI document as the
 * operation's `x-access` extension (docs/decisions/060-access-declarations.md). The reliability
 * suite (tests/reliability/authz-matrix.test.ts) reads it from /api/openapi.json and calls every
 * operation as each of the three callers; an operation without a declaration fails that suite.
 *
 *   schema: { ...access({ visitor: 401, owner: 200, other: 404 }), tags: [...], ... }
 *
 * The callers, each making the same well-formed request:
 * - visitor: no Authorization header;
 * - owner:   signed in, and the owner of whatever the request names (for calls about "me", such as
 *            GET /auth/my, the signed-in user themselves);
 * - other:   signed in as somebody else, naming the owner's thing (API.md: 404, never a hint that it
 *            exists). For calls that name nothing owned (catalogue reads, "me" calls) it is the same
 *            answer as for the owner.
 */
export type AccessStatus = 200 | 201 | 202 | 204 | 400 | 401 | 403 | 404 | 409 | 410 | 429;

export interface Access {
  visitor: AccessStatus;
  owner: AccessStatus;
  other: AccessStatus;
  /** Why the answer is what it is, when it is not obvious. */
  note?: string;
}

/**
 * The route-schema fragment carrying the declaration; spread it into `schema`. It also gives the
 * operation its OpenAPI `security`, from the same declaration: a route that answers a visitor 401
 * takes the bearer token (the scheme server/app.ts declares), every other one is public and says
 * so with `security: []`. The matrix checks the declaration, so it checks this too.
 */
export function access(declaration: Access): { 'x-access': Access; security: { [scheme: string]: string[] }[] } {
  return { 'x-access': declaration, security: declaration.visitor === 401 ? [{ bearer: [] }] : [] };
}

/** Public, read-only: everybody gets the same answer. */
export const publicAccess = (status: AccessStatus = 200, note?: string) =>
  access({ visitor: status, owner: status, other: status, ...(note ? { note } : {}) });

declare module 'fastify' {
  interface FastifySchema {
    /** See server/access.ts. Copied into the OpenAPI operation by @fastify/swagger. */
    'x-access'?: Access;
  }
}
