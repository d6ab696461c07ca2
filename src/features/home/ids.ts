/** The only place the App Home's action ids live. */
export const HOME_IDS = {
  setKey: 'home.key.open',
  refresh: 'home.refresh',
} as const;
