/** The message shortcut "Ask Regdesk about this" (manifest.yml `features.shortcuts`). */
export const ASK_SHORTCUT = 'assistant.ask_about_message';
