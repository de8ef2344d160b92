// Reference data served by GET /msp-token-uid-type and /msp-token-form-factor (not paged).
export const FORM_FACTORS = [
  { id: 'card', name: 'RFID card', physical: true, fulfilable: true },
  { id: 'keychain', name: 'RFID keychain', physical: true, fulfilable: true },
  { id: 'sticker', name: 'RFID sticker', physical: true, fulfilable: false },
  { id: 'virtual', name: 'Virtual token (app, QR)', physical: false, fulfilable: false },
  { id: 'plug_and_charge', name: 'Plug & Charge vehicle contract', physical: false, fulfilable: false },
] as const;
export type FormFactor = (typeof FORM_FACTORS)[number]['id'];
export const FORM_FACTOR_IDS = FORM_FACTORS.map((f) => f.id) as FormFactor[];

export const UID_TYPES = [
  { id: 'rfid_4byte', name: 'RFID UID, 4 bytes (8 hex digits)', pattern: '^[0-9A-F]{8}$' },
  { id: 'rfid_7byte', name: 'RFID UID, 7 bytes (14 hex digits)', pattern: '^[0-9A-F]{14}$' },
  { id: 'rfid_10byte', name: 'RFID UID, 10 bytes (20 hex digits)', pattern: '^[0-9A-F]{20}$' },
  { id: 'emaid', name: 'eMA ID (ISO 15118 contract)', pattern: '^[A-Z0-9]{14,15}$' },
  { id: 'app_user', name: 'App user / virtual identifier', pattern: '^[A-Za-z0-9._-]{1,64}$' },
] as const;
export type UidType = (typeof UID_TYPES)[number]['id'];
export const UID_TYPE_IDS = UID_TYPES.map((u) => u.id) as UidType[];
