/**
 * The terms of purchase (/villkor), the privacy policy (/integritet) and the accessibility
 * statement (/tillganglighet), Swedish and English.
 *
 * Documents, not interface strings: they live with their pages and load with the legal chunk
 * instead of in locales/ (whose Swedish strings are in every page's first load, decision 011).
 * tests/client/legal/legal.test.tsx checks that both languages have the same sections and
 * placeholders. `{seller}`, `{orgNumber}` and `{email}` are filled in from GET /api/seller.
 */
import { TERMS_VERSION } from '../../../contract/terms.ts';

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

/** When the texts last changed (shown on every legal page): the terms' version, recorded with each payment. */
export const LAST_UPDATED = TERMS_VERSION;

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
        'Varje gåva gäller ett bestämt antal dagar, och antalet kan skilja mellan gåvorna. Det står vid gåvan när du väljer den. Tiden räknas från dagen då greetien levereras till mottagaren, inte från dagen du betalar. Mottagaren ser slutdatumet vid varje gåva.',
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
        'En greetie och dess gåvor är digitalt innehåll som levereras direkt. Innan du betalar godkänner du därför att leveransen börjar med en gång, och du intygar att du vet att ångerrätten upphör när mottagaren öppnar greetien eller använder en gåva. Så får det vara enligt lagen om distansavtal när digitalt innehåll levereras direkt och du har gått med på det.',
        'Fram till dess kan du alltid ångra köpet och få tillbaka allt du har betalat, även när det har gått mer än 14 dagar. Du behöver inte säga varför. Hur det går till står under Avbeställning och återbetalning.',
      ],
    },
    {
      id: 'avbestallning',
      heading: 'Avbeställning och återbetalning',
      paragraphs: [
        'Så länge mottagaren inte har öppnat greetien kan du avbeställa den själv på greetiens sida under Mina greeties. Leveransen stoppas, länken slutar fungera och gåvorna går inte att använda.',
        'Vi betalar tillbaka hela beloppet med Swish till det nummer som betalade. På greetiens sida ser du när återbetalningen är klar. Om den inte går igenom försöker vi igen.',
        'Om mottagaren inte öppnar greetien påminner vi hen med sms, och vi säger till dig. Är greetien fortfarande oöppnad 60 dagar efter leveransen avbeställer vi den och betalar tillbaka allt till dig, utan att du behöver göra något.',
        'Har mottagaren redan öppnat greetien, eller får du inte till det, skriv till {email} så hjälper vi dig.',
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
        'Each gift is valid for a set number of days, which can differ from gift to gift. It is shown with the gift when you choose it. The time counts from the day the greetie is delivered to the recipient, not from the day you pay. The recipient sees the end date with each gift.',
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
        'A greetie and its gifts are digital content delivered at once. Before you pay, you therefore agree that delivery starts straight away, and you confirm that you know the right of withdrawal ends when the recipient opens the greetie or uses a gift. The Distance Contracts Act allows this when digital content is delivered at once and you have agreed to it.',
        'Until then you can always withdraw and get back everything you paid, even when more than 14 days have passed. You do not have to say why. How it works is described under Cancelling and refunds.',
      ],
    },
    {
      id: 'avbestallning',
      heading: 'Cancelling and refunds',
      paragraphs: [
        "As long as the recipient has not opened the greetie, you can cancel it yourself on the greetie's page under My greeties. The delivery stops, the link stops working and the gifts cannot be used.",
        "We pay back the whole amount with Swish to the number that paid. The greetie's page shows you when the refund is done. If it does not go through, we try again.",
        'If the recipient does not open the greetie, we remind them by text message, and we let you know. If the greetie is still unopened 60 days after delivery, we cancel it and pay everything back to you, without you having to do anything.',
        'If the recipient has already opened the greetie, or you cannot get it to work, write to {email} and we will help you.',
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

const accessibilitySv: LegalDocument = {
  title: 'Tillgänglighetsredogörelse',
  intro:
    '{seller} (organisationsnummer {orgNumber}) står bakom Greetie. Vi vill att alla ska kunna skicka och öppna greeties och använda sina gåvor, även med skärmläsare, tangentbord, förstoring eller utan att kunna se färger. Här berättar vi hur tillgänglig tjänsten är, vad som inte fungerar än och hur du säger till om något är svårt att använda.',
  sections: [
    {
      id: 'standard',
      heading: 'Hur tillgänglig tjänsten är',
      paragraphs: [
        'Greetie omfattas av lagen (2023:254) om vissa produkters och tjänsters tillgänglighet, som gäller e-handel sedan juni 2025. Vi följer standarden Web Content Accessibility Guidelines (WCAG) 2.1 på nivå AA.',
        'Tjänsten uppfyller delvis WCAG 2.1 AA. Det som inte fungerar än står längre ner på sidan.',
      ],
    },
    {
      id: 'testat',
      heading: 'Så har vi testat',
      paragraphs: ['Vi testar tjänsten själva, varje gång vi ändrar den:'],
      list: [
        'Automatiska tester går igenom tjänstens flöden i en riktig webbläsare, i både mobil- och datorstorlek: logga in, skapa och betala en greetie, öppna den som mottagare, använda en gåva och lösa in den i butik. Varje steg kontrolleras med verktyget axe, och en allvarlig brist får testet att misslyckas.',
        'Inloggningen testas med bara tangentbordet, från första sidan tills du är inloggad. Redigeraren testas med tangentbordet: att välja, flytta, förstora, vrida och ta bort det du har lagt på bilden.',
        'Testerna hittar knappar, länkar, rubriker och fält på de namn och roller som en skärmläsare läser upp, så ett namn som saknas eller är fel syns som ett fel. Vi har ännu inte gått igenom alla flöden med en skärmläsare för hand.',
      ],
    },
    {
      id: 'brister',
      heading: 'Det här fungerar inte än',
      paragraphs: ['Vi känner till de här bristerna och arbetar med dem:'],
      list: [
        'En video i en greetie startar av sig själv utan ljud och spelas om och om igen. Det finns en knapp för ljudet men ingen för att pausa videon (WCAG 2.2.2).',
        'Bilder och videor som avsändaren lägger till har ingen beskrivning och ingen textning. En skärmläsare säger bara att det är bilden eller videon i greetien. Texter och emojier som avsändaren har lagt på bilden läses upp (WCAG 1.1.1 och 1.2.2).',
        'I redigeraren flyttar du det du har lagt på bilden genom att dra det, eller med piltangenterna när det är markerat. Förstora, förminska, vrida och ta bort har egna knappar, men att flytta har ingen knapp än.',
      ],
    },
    {
      id: 'rapportera',
      heading: 'Säg till om något är svårt',
      paragraphs: [
        'Kan du inte använda någon del av tjänsten, eller har du hittat en brist som inte står här? Skriv till {email} och berätta vilken sida det gäller och vad som hände. Vi svarar inom två arbetsdagar, och behöver du hjälp att skicka eller öppna en greetie under tiden hjälper vi dig på annat sätt.',
      ],
    },
    {
      id: 'tillsyn',
      heading: 'Om du inte är nöjd',
      paragraphs: [
        'Är du inte nöjd med vårt svar kan du anmäla bristande tillgänglighet till Post- och telestyrelsen (PTS), pts.se, som har tillsyn över att e-handel följer tillgänglighetslagen.',
        'Myndigheten för digital förvaltning (DIGG), digg.se, har tillsyn över offentliga webbplatser och ger vägledning om digital tillgänglighet.',
      ],
    },
  ],
};

const accessibilityEn: LegalDocument = {
  title: 'Accessibility statement',
  intro:
    '{seller} (Swedish organisation number {orgNumber}) is behind Greetie. We want everyone to be able to send and open greeties and use their gifts, also with a screen reader, a keyboard, magnification or without seeing colours. Here we tell you how accessible the service is, what does not work yet and how to tell us when something is hard to use.',
  sections: [
    {
      id: 'standard',
      heading: 'How accessible the service is',
      paragraphs: [
        'Greetie is covered by the Swedish Accessibility of Certain Products and Services Act (2023:254), which applies to e-commerce since June 2025. We follow the Web Content Accessibility Guidelines (WCAG) 2.1 at level AA.',
        'The service partly meets WCAG 2.1 AA. What does not work yet is listed further down the page.',
      ],
    },
    {
      id: 'testat',
      heading: 'How we tested it',
      paragraphs: ['We test the service ourselves, every time we change it:'],
      list: [
        "Automated tests go through the service's flows in a real browser, in both phone and desktop sizes: signing in, creating and paying for a greetie, opening it as the recipient, using a gift and redeeming it in a shop. Every step is checked with the axe tool, and a serious fault makes the test fail.",
        'Signing in is tested with the keyboard alone, from the first page until you are signed in. The editor is tested with the keyboard: selecting, moving, enlarging, turning and removing what you have put on the picture.',
        'The tests find buttons, links, headings and fields by the names and roles a screen reader reads out, so a missing or wrong name shows up as a failure. We have not yet gone through every flow with a screen reader by hand.',
      ],
    },
    {
      id: 'brister',
      heading: 'What does not work yet',
      paragraphs: ['We know about these faults and are working on them:'],
      list: [
        'A video in a greetie starts by itself without sound and plays over and over. There is a button for the sound but none to pause the video (WCAG 2.2.2).',
        'Photos and videos the sender adds have no description and no captions. A screen reader only says that it is the photo or the video in the greetie. Texts and emoji the sender put on the picture are read out (WCAG 1.1.1 and 1.2.2).',
        'In the editor you move what you have put on the picture by dragging it, or with the arrow keys when it is selected. Enlarge, shrink, turn and remove have their own buttons, but moving has no button yet.',
      ],
    },
    {
      id: 'rapportera',
      heading: 'Tell us when something is hard',
      paragraphs: [
        'Is there a part of the service you cannot use, or have you found a fault that is not listed here? Write to {email} and tell us which page it is and what happened. We answer within two working days, and if you need to send or open a greetie in the meantime we help you another way.',
      ],
    },
    {
      id: 'tillsyn',
      heading: 'If you are not satisfied',
      paragraphs: [
        'If you are not satisfied with our answer, you can report a lack of accessibility to the Swedish Post and Telecom Authority (PTS), pts.se, which supervises that e-commerce follows the accessibility act.',
        'The Agency for Digital Government (DIGG), digg.se, supervises public websites and gives guidance on digital accessibility.',
      ],
    },
  ],
};

export const documents = {
  terms: { sv: termsSv, en: termsEn },
  privacy: { sv: privacySv, en: privacyEn },
  accessibility: { sv: accessibilitySv, en: accessibilityEn },
} as const;

export type DocumentId = keyof typeof documents;
