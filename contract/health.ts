import { Type, type Static } from 'typebox';

export const Health = Type.Object({
  status: Type.Union([Type.Literal('ok'), Type.Literal('error')]),
  db: Type.Union([Type.Literal('ok'), Type.Literal('error')]),
}, { $id: 'Health', title: 'Health' });
export type Health = Static<typeof Health>;
