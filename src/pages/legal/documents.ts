/**
 * The terms of purchase (/villkor) and the privacy policy (/integritet), Swedish and English.
 *
 * Documents, not interface strings: they live with their pages and load with the legal chunk
 * instead of in locales/ (whose Swedish strings are in every page's first load, decision 011).
 * tests/client/legal/documents.test.ts checks that both languages have the same sections and
 * placeholders. `{seller}`, `{orgNumber}` and `{email}` are filled in from GET /api/seller.
 */
export interface LegalSection {
  id: string;
  heading: string;
  paragraphs: string[];
  list?: string[];
}

export interface LegalDocument {
  title: string;
  intro: string;
  sections: LegalSection[];
}

/** When the texts last changed (shown on both pages). */
export const LAST_UPDATED = '2026-11-23';

const termsSv: LegalDocument = {
  title: 'Köpvillkor',
  intro:
    'Här står vad som gäller när du köper gåvor med en greetie. Vi har försökt skriva det så att det går att läsa på en bussresa. Har du frågor är du alltid välkommen att skriva till oss på {email}.',
  sections: [
    {
      id: 'saljare',
      heading: 'Vem du köper av',
      paragraphs: [
        'Du köper av {seller} (organisationsnummer {orgNumber}). Det är vi som tar emot din betalning, skickar din greetie och svarar för köpet. Gåvorna löses in hos butikerna och organisationerna i vår katalog.',
      ],
    },
    {
      id: 'tjansten',
      heading: 'Vad du köper',
      paragraphs: [
        'En greetie är en hälsning med bild eller film, text och dekorationer som vi skickar med sms till den du vill glädja. Du kan lägga till en eller flera gåvor: presentkort från butiker i katalogen, presentkoder eller gåvor till välgörenhet.',
        'Att skicka en greetie utan gåvor kostar ingenting.',
      ],
    },
    {
      id: 'priser',
      heading: 'Priser och betalning',
      paragraphs: [
        'Alla priser står i svenska kronor och inkluderar moms när moms ska betalas. Det du ser i sista steget innan du betalar är hela priset – det tillkommer inga avgifter.',
        'Du betalar med Swish. Köpet är klart när du har godkänt betalningen i Swish-appen och vi har fått bekräftelse från Swish. Avbryter du eller hinner betalningen gå ut dras inga pengar, och din greetie ligger kvar som utkast.',
      ],
    },
    {
      id: 'leverans',
      heading: 'Leverans',
      paragraphs: [
        'Vi skickar greetien med sms till mottagarens mobilnummer, direkt när betalningen är klar eller vid den tidpunkt du har valt. I sms:et finns en länk. Mottagaren loggar in med samma mobilnummer för att se gåvorna och få dem sparade under Mina gåvor.',
        'Kontrollera att numret stämmer innan du betalar. Om sms:et inte går fram försöker vi flera gånger, och lyckas det inte ser du det under Mina greeties. Hör då av dig till oss, så hjälper vi dig.',
      ],
    },
    {
      id: 'giltighet',
      heading: 'Giltighetstid',
      paragraphs: [
        'Hur länge en gåva gäller står vid gåvan när du väljer den. Tiden räknas från dagen då greetien levereras till mottagaren, inte från dagen du betalar. Slutdatumet syns för mottagaren vid varje gåva.',
        'En gåva som inte har lösts in när giltighetstiden är slut går inte längre att använda. Har något gått snett, till exempel att butiken har stängt, hör av dig så löser vi det tillsammans.',
      ],
    },
    {
      id: 'inlosen',
      heading: 'Så löses gåvorna in',
      paragraphs: ['Varje gåva kan användas en gång och kan inte bytas mot kontanter.'],
      list: [
        'Presentkort i butik: mottagaren visar gåvan i telefonen i butiken, och personalen skriver in butikens kod. Då är gåvan använd.',
        'Presentkod: mottagaren får en kod att använda hos butiken, till exempel i deras webbutik.',
        'Välgörenhet: gåvan går till organisationen, och mottagaren får ett gåvobevis.',
      ],
    },
    {
      id: 'angerratt',
      heading: 'Ångerrätt',
      paragraphs: [
        'Du har 14 dagars ångerrätt enligt lagen om distansavtal. Ångerfristen börjar den dag du betalar.',
        'Vill du ångra ett köp innan greetien har levererats stoppar vi leveransen och betalar tillbaka hela beloppet. Har greetien redan levererats kan du ändå ångra köpet av de gåvor som inte har lösts in: vi spärrar dem och betalar tillbaka deras värde. En gåva som redan har använts kan inte ångras, eftersom den då har gett det den skulle.',
        'Skriv till {email} och berätta vilken greetie det gäller. Du behöver inte säga varför. Vi betalar tillbaka till samma Swish-nummer som betalade, senast 14 dagar efter att vi fick ditt besked.',
      ],
    },
    {
      id: 'reklamation',
      heading: 'Om något blir fel',
      paragraphs: [
        'Om en gåva inte fungerar som den ska, om mottagaren inte fick sitt sms eller om butiken inte tar emot gåvan, hör av dig till {email} så snart du kan. Vi svarar inom två arbetsdagar, och är felet vårt rättar vi det eller betalar tillbaka.',
        'Blir vi inte överens kan du vända dig till Allmänna reklamationsnämnden (ARN), som prövar tvister mellan konsumenter och företag. Det är gratis. Läs mer på arn.se. Vi följer ARN:s rekommendationer.',
      ],
    },
    {
      id: 'personuppgifter',
      heading: 'Dina uppgifter',
      paragraphs: ['Hur vi hanterar dina personuppgifter står i vår integritetspolicy.'],
    },
  ],
};

const termsEn: LegalDocument = {
  title: 'Terms of purchase',
  intro:
    'This is what applies when you buy gifts with a greetie. We have tried to write it so it can be read on a bus ride. If you have questions, you are always welcome to write to us at {email}.',
  sections: [
    {
      id: 'saljare',
      heading: 'Who you buy from',
      paragraphs: [
        'You buy from {seller} (Swedish organisation number {orgNumber}). We take your payment, send your greetie and are responsible for the purchase. The gifts are redeemed at the shops and organisations in our catalogue.',
      ],
    },
    {
      id: 'tjansten',
      heading: 'What you buy',
      paragraphs: [
        'A greetie is a greeting with a photo or a video, text and decorations that we send by text message to the person you want to make happy. You can add one or more gifts: gift vouchers from shops in the catalogue, gift codes or gifts to charity.',
        'Sending a greetie without gifts costs nothing.',
      ],
    },
    {
      id: 'priser',
      heading: 'Prices and payment',
      paragraphs: [
        'All prices are in Swedish kronor and include VAT where VAT is due. What you see in the last step before you pay is the whole price – there are no extra fees.',
        'You pay with Swish. The purchase is complete when you have approved the payment in the Swish app and Swish has confirmed it to us. If you cancel, or the payment runs out of time, no money is taken and your greetie stays as a draft.',
      ],
    },
    {
      id: 'leverans',
      heading: 'Delivery',
      paragraphs: [
        "We send the greetie by text message to the recipient's mobile number, as soon as the payment is complete or at the time you chose. The message has a link. The recipient signs in with the same mobile number to see the gifts and keep them under My gifts.",
        'Check that the number is right before you pay. If the message does not get through we try several times, and if it still fails you will see it under My greeties. Get in touch with us then and we will help you.',
      ],
    },
    {
      id: 'giltighet',
      heading: 'How long gifts are valid',
      paragraphs: [
        'How long a gift is valid is shown with the gift when you choose it. The time counts from the day the greetie is delivered to the recipient, not from the day you pay. The recipient sees the end date with each gift.',
        'A gift that has not been redeemed when it expires can no longer be used. If something has gone wrong, for example the shop has closed, get in touch and we will sort it out together.',
      ],
    },
    {
      id: 'inlosen',
      heading: 'How gifts are redeemed',
      paragraphs: ['Each gift can be used once and cannot be exchanged for cash.'],
      list: [
        "Gift voucher in a shop: the recipient shows the gift on their phone in the shop, and the staff type in the shop's code. The gift is then used.",
        "Gift code: the recipient gets a code to use with the shop, for example in the shop's online store.",
        'Charity: the gift goes to the organisation, and the recipient gets a certificate.',
      ],
    },
    {
      id: 'angerratt',
      heading: 'Right of withdrawal',
      paragraphs: [
        'You have 14 days to change your mind under the Swedish Distance Contracts Act. The 14 days start on the day you pay.',
        'If you change your mind before the greetie has been delivered, we stop the delivery and pay back the whole amount. If the greetie has already been delivered, you can still withdraw from the purchase of gifts that have not been redeemed: we block them and pay back their value. A gift that has already been used cannot be withdrawn, since it has then given what it was meant to.',
        'Write to {email} and tell us which greetie it is about. You do not have to say why. We pay back to the same Swish number that paid, at the latest 14 days after we received your message.',
      ],
    },
    {
      id: 'reklamation',
      heading: 'If something goes wrong',
      paragraphs: [
        'If a gift does not work as it should, if the recipient did not get their text message, or if the shop does not accept the gift, write to {email} as soon as you can. We answer within two working days, and if the fault is ours we put it right or pay you back.',
        'If we cannot agree, you can turn to the Swedish National Board for Consumer Disputes (ARN), which handles disputes between consumers and businesses free of charge. Read more at arn.se. We follow ARN\'s recommendations.',
      ],
    },
    {
      id: 'personuppgifter',
      heading: 'Your personal data',
      paragraphs: ['How we handle your personal data is described in our privacy policy.'],
    },
  ],
};

const privacySv: LegalDocument = {
  title: 'Integritetspolicy',
  intro:
    '{seller} (organisationsnummer {orgNumber}) är personuppgiftsansvarig för de uppgifter vi behandlar när du använder Greetie. Här berättar vi vad vi sparar, varför, hur länge och vilka rättigheter du har. Frågor skickar du till {email}.',
  sections: [
    {
      id: 'vad',
      heading: 'Vad vi sparar',
      paragraphs: ['Vi sparar bara det som behövs för att tjänsten ska fungera:'],
      list: [
        'Ditt mobilnummer: du loggar in med det, och greeties och gåvor som skickas till det hamnar hos dig.',
        'Ditt namn, om du skriver in det: det visas för dem du skickar greeties till.',
        'Dina greeties: bild eller film, text, dekorationer, mottagarens namn och mobilnummer, när greetien ska levereras och om den har öppnats.',
        'Betalningar: belopp, status, Swish-referens och det Swish-nummer som betalade, om du skrev in ett.',
        'Gåvor: vilka gåvor du har gett eller fått, när de går ut och när de lösts in.',
        'Teknisk information: inloggningsnycklar (sparade så att ingen kan läsa dem), din IP-adress för att stoppa missbruk, och loggar över anrop utan innehåll som koder och nycklar.',
      ],
    },
    {
      id: 'varfor',
      heading: 'Varför vi gör det',
      paragraphs: [
        'För att kunna ge dig tjänsten du har bett om (avtal): logga in dig, skicka dina greeties, ta betalt och lämna ut gåvorna.',
        'För att lagen kräver det (rättslig förpliktelse): bokföringslagen säger att vi ska spara uppgifter om betalningar.',
        'För att skydda tjänsten och dig (berättigat intresse): begränsa hur många koder och sms som kan skickas, och upptäcka missbruk.',
        'Med ditt samtycke: nyhetsbrev och erbjudanden om du har sagt ja till det, och besöksstatistik om du har tackat ja till det. Du kan ändra dig när du vill under Mina sidor.',
      ],
    },
    {
      id: 'hur-lange',
      heading: 'Hur länge vi sparar uppgifterna',
      paragraphs: [],
      list: [
        'Konto, namn och greeties: så länge du har ditt konto. Greeties som redan har levererats finns kvar hos mottagarna.',
        'Betalningar: i sju år efter utgången av det år då köpet gjordes, som bokföringslagen kräver.',
        'Inloggningskoder gäller i fem minuter. Inloggningar upphör efter 30 dagar utan användning, eller när du loggar ut.',
        'IP-adresser som används för att stoppa missbruk, och loggar: högst 30 dagar.',
      ],
    },
    {
      id: 'delar',
      heading: 'Vilka som får ta del av uppgifterna',
      paragraphs: [
        'Vi säljer aldrig dina uppgifter. Vi anlitar några leverantörer som behandlar uppgifter för vår räkning och bara enligt våra instruktioner: sms-leverantören som skickar sms:en, Swish och banken som hanterar betalningen, och den som driver våra servrar. Om uppgifter behandlas utanför EU/EES ser vi till att de skyddas på det sätt som dataskyddsförordningen (GDPR) kräver.',
      ],
    },
    {
      id: 'kakor',
      heading: 'Kakor och lagring i webbläsaren',
      paragraphs: [
        'Vi använder en nödvändig kaka för att hålla dig inloggad, även när du kommer tillbaka från Swish-appen i en ny flik. Den kan inte läsas av sidans skript och skickas bara till vår inloggning. I webbläsarens lagring sparar vi din inloggning för fliken, ditt språkval och ditt svar om besöksstatistik. Besöksstatistik används bara om du har sagt ja.',
      ],
    },
    {
      id: 'rattigheter',
      heading: 'Dina rättigheter',
      paragraphs: ['Enligt dataskyddsförordningen (GDPR) har du rätt att:'],
      list: [
        'få veta vilka uppgifter vi har om dig och få en kopia av dem',
        'få felaktiga uppgifter rättade',
        'få dina uppgifter raderade, utom sådant som lagen kräver att vi sparar',
        'begränsa eller invända mot hur vi använder uppgifterna',
        'få ut uppgifter du har lämnat i ett format som går att flytta till någon annan',
        'när som helst ta tillbaka ett samtycke',
      ],
    },
    {
      id: 'kontakt',
      heading: 'Kontakt och klagomål',
      paragraphs: [
        'Skriv till {email} om du vill använda dina rättigheter eller har frågor. Vi svarar inom en månad, oftast mycket snabbare.',
        'Tycker du att vi hanterar dina uppgifter fel kan du klaga hos Integritetsskyddsmyndigheten (IMY), imy.se.',
      ],
    },
  ],
};

const privacyEn: LegalDocument = {
  title: 'Privacy policy',
  intro:
    '{seller} (Swedish organisation number {orgNumber}) is the controller of the personal data we process when you use Greetie. Here we tell you what we keep, why, for how long and what rights you have. Send questions to {email}.',
  sections: [
    {
      id: 'vad',
      heading: 'What we keep',
      paragraphs: ['We only keep what the service needs to work:'],
      list: [
        'Your mobile number: you sign in with it, and greeties and gifts sent to it end up with you.',
        'Your name, if you enter it: it is shown to the people you send greeties to.',
        "Your greeties: photo or video, text, decorations, the recipient's name and mobile number, when the greetie is to be delivered and whether it has been opened.",
        'Payments: amount, status, the Swish reference and the Swish number that paid, if you typed one.',
        'Gifts: which gifts you have given or received, when they expire and when they were redeemed.',
        'Technical information: sign-in keys (stored so that nobody can read them), your IP address to stop misuse, and logs of requests without their contents such as codes and keys.',
      ],
    },
    {
      id: 'varfor',
      heading: 'Why we do it',
      paragraphs: [
        'To give you the service you asked for (contract): signing you in, sending your greeties, taking payment and handing out the gifts.',
        'Because the law requires it (legal obligation): the Swedish Bookkeeping Act says we must keep records of payments.',
        'To protect the service and you (legitimate interest): limiting how many codes and text messages can be sent, and detecting misuse.',
        'With your consent: news and offers if you said yes to them, and visitor statistics if you accepted them. You can change your mind at any time under My pages.',
      ],
    },
    {
      id: 'hur-lange',
      heading: 'How long we keep the data',
      paragraphs: [],
      list: [
        'Account, name and greeties: for as long as you have your account. Greeties already delivered stay with their recipients.',
        'Payments: for seven years after the end of the year of the purchase, as the Bookkeeping Act requires.',
        'Sign-in codes are valid for five minutes. Sign-ins end after 30 days without use, or when you sign out.',
        'IP addresses used to stop misuse, and logs: at most 30 days.',
      ],
    },
    {
      id: 'delar',
      heading: 'Who gets to see the data',
      paragraphs: [
        'We never sell your data. We use a few suppliers who process data on our behalf and only on our instructions: the SMS provider that sends the text messages, Swish and the bank that handle the payment, and whoever runs our servers. If data is processed outside the EU/EEA, we make sure it is protected the way the General Data Protection Regulation (GDPR) requires.',
      ],
    },
    {
      id: 'kakor',
      heading: 'Cookies and storage in your browser',
      paragraphs: [
        "We use one necessary cookie to keep you signed in, also when you come back from the Swish app in a new tab. The page's scripts cannot read it, and it is only sent to our sign-in. In the browser's storage we keep your sign-in for the tab, your choice of language and your answer about visitor statistics. Visitor statistics are only used if you said yes.",
      ],
    },
    {
      id: 'rattigheter',
      heading: 'Your rights',
      paragraphs: ['Under the General Data Protection Regulation (GDPR) you have the right to:'],
      list: [
        'know what data we hold about you and get a copy of it',
        'have wrong data corrected',
        'have your data erased, except what the law requires us to keep',
        'restrict or object to how we use the data',
        'get the data you gave us in a format you can take to someone else',
        'withdraw a consent at any time',
      ],
    },
    {
      id: 'kontakt',
      heading: 'Contact and complaints',
      paragraphs: [
        'Write to {email} if you want to use your rights or have questions. We answer within a month, usually much sooner.',
        'If you think we handle your data wrongly, you can complain to the Swedish Authority for Privacy Protection (IMY), imy.se.',
      ],
    },
  ],
};

export const documents = {
  terms: { sv: termsSv, en: termsEn },
  privacy: { sv: privacySv, en: privacyEn },
} as const;

export type DocumentId = keyof typeof documents;
