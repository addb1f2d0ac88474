// Serial numbers some vendors ship on every board; they identify nothing.
const GENERIC_SERIALS = new Set([
  '',
  '0',
  'none',
  'default string',
  'to be filled by o.e.m.',
  'system serial number',
  'not specified',
  'not applicable',
  '0123456789',
]);

/** A serial number that can tell one machine from another (used by duplicate detection). */
export const isUsableSerial = (serial: string | null | undefined): serial is string =>
  !!serial && !GENERIC_SERIALS.has(serial.trim().toLowerCase());
