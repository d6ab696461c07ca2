/**
 * The parts of Bolt Regdesk runs on, loaded from their own modules: Bolt's index also loads its
 * Express and AWS Lambda receivers (express, body-parser and their dependencies, several MB
 * resident), which no Regdesk role uses (issue #17, idle memory). Bolt is CommonJS; `require` gives
 * the same objects under Node and under the test runner. Types come from `@slack/bolt`: these are the
 * same classes its index re-exports.
 */
import { createRequire } from 'node:module';
import type {
  App as BoltApp,
  Assistant as BoltAssistant,
  HTTPReceiver as BoltHttpReceiver,
  LogLevel as BoltLogLevel,
} from '@slack/bolt';

const require = createRequire(import.meta.url);
const appModule = require('@slack/bolt/dist/App.js') as {
  default: typeof BoltApp;
  LogLevel: typeof BoltLogLevel;
};

export const App = appModule.default;
export const LogLevel = appModule.LogLevel;
export const HTTPReceiver = (
  require('@slack/bolt/dist/receivers/HTTPReceiver.js') as { default: typeof BoltHttpReceiver }
).default;
export const Assistant = (require('@slack/bolt/dist/Assistant.js') as { Assistant: typeof BoltAssistant })
  .Assistant;
