import { createHash } from 'node:crypto';
import type { Redis } from './redis.js';

type ScriptCall = (...numberOfKeysKeysAndArgs: (string | number)[]) => Promise<unknown>;

/**
 * A Lua script sent by its SHA1 (EVALSHA) instead of its source on every call. Made with ioredis's
 * public `defineCommand`, once per connection: ioredis sends the source the first time a socket
 * runs it and again on NOSCRIPT (a restarted or flushed Redis, another cluster node), so no caller
 * loads scripts itself. Called like EVAL without the source: the number of keys, the keys, the args.
 */
export class LuaScript {
  readonly #name: string;

  constructor(readonly lua: string) {
    // Named by its content: two scripts never share a name, one script is defined once per connection.
    this.#name = `regdesk_${createHash('sha1').update(lua).digest('hex').slice(0, 16)}`;
  }

  run(redis: Redis, numberOfKeys: number, ...keysAndArgs: (string | number)[]): Promise<unknown> {
    const commands = redis as unknown as Record<string, ScriptCall | undefined>;
    let call = commands[this.#name];
    if (call === undefined) {
      // No fixed key count: it is passed on every call, as with EVAL (the limiter's windows vary).
      redis.defineCommand(this.#name, { lua: this.lua });
      call = commands[this.#name] as ScriptCall;
    }
    return call.call(redis, numberOfKeys, ...keysAndArgs);
  }
}

const RELEASE_OWN = new LuaScript(
  `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0`,
);

/** Deletes `key` only while it still holds `token`: a lock that expired and was taken since stays. */
export async function releaseOwn(redis: Redis, key: string, token: string): Promise<void> {
  await RELEASE_OWN.run(redis, 1, key, token);
}
