// Till mode in the merchant portal (/portal/{merchantId}/kassa) is its own chunk: the staff's phone
// at the till loads the scanner and its strings only here; the QR reader itself loads when the
// camera starts (detector.ts).
export { TillModePage } from './TillModePage.tsx';
