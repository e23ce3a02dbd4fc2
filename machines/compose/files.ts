import type { GreetieMedia } from '../../contract/greetie.ts';
import { PHOTO_MAX_BYTES, VIDEO_MAX_BYTES, isPhotoType, isVideoType, mediaTypeOf, mediaTypeOfName } from '../../contract/media.ts';

/** The media step's check of a chosen file, before anything is sent (the limits are the contract's). */

export type MediaKind = GreetieMedia['kind'];

/** What the page hands over of a chosen file (a browser File is one). */
export interface ChosenFile {
  name: string;
  type: string;
  size: number;
}

export type FileRefusal = 'wrongType' | 'photoTooBig' | 'videoTooBig' | 'empty';

/**
 * The browser's quick check of a chosen file, from its declared type (or, when it has none, its
 * name) and its size. The server checks the bytes themselves.
 */
export function checkMediaFile(file: ChosenFile): { kind: MediaKind } | { refused: FileRefusal } {
  const type = mediaTypeOf(file.type || mediaTypeOfName(file.name));
  if (isPhotoType(type)) {
    if (file.size === 0) return { refused: 'empty' };
    return file.size > PHOTO_MAX_BYTES ? { refused: 'photoTooBig' } : { kind: 'photo' };
  }
  if (isVideoType(type)) {
    if (file.size === 0) return { refused: 'empty' };
    return file.size > VIDEO_MAX_BYTES ? { refused: 'videoTooBig' } : { kind: 'video' };
  }
  return { refused: 'wrongType' };
}
