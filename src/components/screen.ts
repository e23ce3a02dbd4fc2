/**
 * The screen a flow shows, read one way for every flow: each state the page shows carries one
 * `screen:<name>` tag, and the hook reads its name. The names are the tags' own, so no list
 * restates them.
 */
export type ScreenOf<Tag extends string> = Tag extends `screen:${infer S}` ? S : never;

export function screenOf<Tag extends string>(snapshot: { tags: ReadonlySet<Tag> }): ScreenOf<Tag> | null {
  for (const tag of snapshot.tags) if (tag.startsWith('screen:')) return tag.slice('screen:'.length) as ScreenOf<Tag>;
  return null;
}
