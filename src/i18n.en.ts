/**
 * The English strings, every namespace, as one lazily loaded chunk: src/i18n.ts imports this only
 * when English is chosen (stored from an earlier visit, or switched to), so a Swedish first load
 * carries Swedish only (docs/decisions/011).
 */
const modules = import.meta.glob<{ default: Record<string, unknown> }>('../locales/en/*.json', { eager: true });

export const resources: Record<string, Record<string, unknown>> = Object.fromEntries(
  Object.entries(modules).map(([file, mod]) => [/\/([^/]+)\.json$/.exec(file)![1]!, mod.default]),
);
