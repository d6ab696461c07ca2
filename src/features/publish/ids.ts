/** The only place the publish feature's action ids live (tests and the certificate card import them). */
export const PUBLISH_IDS = {
  publish: 'publish.validation_records',
} as const;
