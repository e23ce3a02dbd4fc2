import type { MobileUser } from '../../contract/auth.ts';
import { NAME_MAX_LENGTH, checkName, type ProfileBody } from '../../contract/mobileuser.ts';
import { signedInUser, toMobileUser } from '../auth/rules.ts';
import { badRequest, notFound } from '../errors.ts';
import type { Deps } from '../services.ts';
import * as q from './queries.ts';

/**
 * The rules of one's own profile (API.md, "Mobile user"): a person reads and changes only
 * themselves; naming anybody else's id is 404, never a hint that the id exists.
 */

/** The caller's own profile, or 404 for any other id. */
export async function profile(deps: Pick<Deps, 'db'>, callerId: string, id: string): Promise<MobileUser> {
  if (id.toLowerCase() !== callerId) throw notFound();
  return signedInUser(deps.db, callerId);
}

/** Completes or changes the caller's profile: a name (checked by contract's checkName) and/or the marketing consent. */
export async function updateProfile(deps: Pick<Deps, 'db'>, callerId: string, body: ProfileBody): Promise<MobileUser> {
  let name: string | undefined;
  if (body.name !== undefined) {
    const checked = checkName(body.name);
    if (!checked.ok) throw badRequest(checked.problem, { max: NAME_MAX_LENGTH }, [{ field: 'body.name', problem: checked.problem }]);
    name = checked.name;
  }
  const row = await q.updateProfile(deps.db, callerId, { name, allowMarketing: body.allowMarketing });
  if (!row) throw notFound();
  return toMobileUser(row);
}

/** The same change for the profile at `id`, which must be the caller's own. */
export async function updateOwnProfile(deps: Pick<Deps, 'db'>, callerId: string, id: string, body: ProfileBody): Promise<MobileUser> {
  if (id.toLowerCase() !== callerId) throw notFound();
  return updateProfile(deps, callerId, body);
}

/** Gives or withdraws the marketing consent. */
export async function setMarketingConsent(deps: Pick<Deps, 'db'>, callerId: string, isAllowed: boolean): Promise<MobileUser> {
  return updateProfile(deps, callerId, { allowMarketing: isAllowed });
}
