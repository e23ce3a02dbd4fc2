import type { Db } from './db/index.ts';
import { seedDemoAddresses, seedDemoOwners, seedMerchants } from './merchant/seed.ts';
import { seedCodePools } from './payment/seed.ts';

/**
 * Demo data for an empty database. Each resource adds its own seeder; a seeder must do nothing
 * when its data is already there, so seeding at every start is safe.
 */
export type Seeder = (db: Db) => Promise<void>;

export const seeders: Seeder[] = [seedMerchants, seedDemoAddresses, seedDemoOwners, seedCodePools];

export async function seed(db: Db): Promise<void> {
  for (const s of seeders) await s(db);
}
