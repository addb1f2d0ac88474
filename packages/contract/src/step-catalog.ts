// docs/product/packages.md#step-types and #validation — the step types, their fields, and the rules that check
// them. The builder renders its forms from this catalogue and the server validates with the
// schemas derived from it, so the UI and the API cannot disagree.
//
// The catalogue is split by concern: step-types.ts (types and value lists), step-definitions.ts
// (the catalogue) and step-details.ts (checks and schemas); this file is the entry point.

export * from './step-types';
export * from './step-definitions';
export * from './step-details';
