/**
 * The parts of Bolt Regdesk runs on, loaded from their own modules: Bolt's index also loads its
 * Express and AWS Lambda receivers (express, body-parser and their dependencies, several MB
 * resident), which no Regdesk role uses (issue #17, idle memory). Bolt is CommonJS; `require` gives
 * the same objects under Node and under the test runner. Types come from `@slack/bolt`: these are the
 * same classes its index re-exports.
 */
import Module, { createRequire } from 'node:module';
import type {
  App as BoltApp,
  Assistant as BoltAssistant,
  HTTPReceiver as BoltHttpReceiver,
  LogLevel as BoltLogLevel,
} from '@slack/bolt';

const require = createRequire(import.meta.url);

/**
 * Bolt's App module loads its Socket Mode receiver, and with it `@slack/socket-mode` and undici
 * (about 8 MB resident), in every process; only `SLACK_MODE=socket` uses it (issue #17, idle
 * memory). A stand-in is put in the module cache first: it loads the real receiver when Bolt
 * constructs one, and `instanceof` asks the real class.
 */
const socketModePath = require.resolve('@slack/bolt/dist/receivers/SocketModeReceiver.js');
if (require.cache[socketModePath] === undefined) {
  let loaded: (new (...args: unknown[]) => object) | undefined;
  const real = (): (new (...args: unknown[]) => object) => {
    if (loaded === undefined) {
      delete require.cache[socketModePath];
      loaded = (require(socketModePath) as { default: new (...args: unknown[]) => object }).default;
    }
    return loaded;
  };
  class LazySocketModeReceiver {
    constructor(...args: unknown[]) {
      // biome-ignore lint/correctness/noConstructorReturn: hands Bolt the real receiver.
      return new (real())(...args);
    }
    static [Symbol.hasInstance](value: unknown): boolean {
      return value instanceof real();
    }
  }
  const stand = new Module(socketModePath);
  stand.filename = socketModePath;
  stand.loaded = true;
  stand.exports = { __esModule: true, default: LazySocketModeReceiver };
  require.cache[socketModePath] = stand;
}

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
