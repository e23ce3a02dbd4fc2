import type { Catalogue } from '../i18n/index.ts';

/** Error messages of media uploads and media files (GREETIE_NOT_FOUND and GREETIE_NOT_DRAFT are server/greetie's). */
export const messages = {
  MEDIA_NOT_MULTIPART: {
    sv: 'Skicka filen som multipart/form-data i fältet "file".',
    en: 'Send the file as multipart/form-data in the field "file".',
  },
  MEDIA_FILE_MISSING: { sv: 'Ingen fil skickades (fältet "file").', en: 'No file was sent (the field "file").' },
  MEDIA_UNEXPECTED_PART: {
    sv: 'Formuläret innehåller ett fält som inte hör hit: {field}.',
    en: 'The form has a field that does not belong here: {field}.',
  },
  MEDIA_TYPE_NOT_ALLOWED: {
    sv: 'Filtypen stöds inte. Välj ett foto (JPEG, PNG, WebP eller HEIC) eller en video (MP4, WebM eller MOV).',
    en: 'That file type is not supported. Choose a photo (JPEG, PNG, WebP or HEIC) or a video (MP4, WebM or MOV).',
  },
  OVERLAY_TYPE_NOT_ALLOWED: { sv: 'Lagret måste vara en PNG- eller WebP-bild.', en: 'The layer must be a PNG or WebP image.' },
  PICTURE_TYPE_NOT_ALLOWED: {
    sv: 'Bilden måste vara ett foto i JPEG, PNG, WebP eller HEIC.',
    en: 'The picture must be a JPEG, PNG, WebP or HEIC photo.',
  },
  POSTER_TYPE_NOT_ALLOWED: { sv: 'Omslagsbilden måste vara JPEG, PNG eller WebP.', en: 'The poster must be a JPEG, PNG or WebP image.' },
  PHOTO_TOO_LARGE: { sv: 'Fotot är för stort. Det får vara högst {maxMb} MB.', en: 'The photo is too large. It may be at most {maxMb} MB.' },
  VIDEO_TOO_LARGE: { sv: 'Videon är för stor. Den får vara högst {maxMb} MB.', en: 'The video is too large. It may be at most {maxMb} MB.' },
  OVERLAY_TOO_LARGE: { sv: 'Lagret är för stort. Det får vara högst {maxMb} MB.', en: 'The layer is too large. It may be at most {maxMb} MB.' },
  POSTER_TOO_LARGE: { sv: 'Omslagsbilden är för stor. Den får vara högst {maxMb} MB.', en: 'The poster is too large. It may be at most {maxMb} MB.' },
  VIDEO_TOO_LONG: {
    sv: 'Videon är för lång ({seconds} sekunder). Den får vara högst {maxSeconds} sekunder.',
    en: 'The video is too long ({seconds} seconds). It may be at most {maxSeconds} seconds.',
  },
  VIDEO_LENGTH_MISMATCH: {
    sv: 'Videons längd går inte att avgöra: filens egna uppgifter om längden stämmer inte med varandra. Spara videon på nytt och försök igen.',
    en: "The video's length cannot be told: the file's own figures for its length disagree. Save the video again and try again.",
  },
  MEDIA_UNREADABLE: {
    sv: 'Filen gick inte att läsa. Den kan vara skadad eller ofullständig. Prova en annan fil.',
    en: 'The file could not be read. It may be damaged or incomplete. Try another file.',
  },
  MEDIA_TOO_MANY_PIXELS: {
    sv: 'Bilden har för många bildpunkter. Välj en mindre bild.',
    en: 'The image has too many pixels. Choose a smaller one.',
  },
  RANGE_NOT_SATISFIABLE: { sv: 'Den begärda delen av filen finns inte.', en: 'The requested part of the file does not exist.' },
} satisfies Catalogue;
