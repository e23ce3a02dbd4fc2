import { Type, type Static } from 'typebox';

/** The company that sells the vouchers, as the terms, the privacy policy and the receipt name it (GET /api/seller). */
export const Seller = Type.Object(
  {
    name: Type.String({ description: 'The company name, e.g. "Greetie AB"' }),
    orgNumber: Type.String({ pattern: '^[0-9]{6}-[0-9]{4}$', description: 'Swedish organisation number, NNNNNN-NNNN' }),
    email: Type.String({ description: 'Where customers write (questions, complaints, personal data)' }),
  },
  { $id: 'Seller', title: 'Seller' },
);
export type Seller = Static<typeof Seller>;
