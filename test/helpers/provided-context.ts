import { inject } from 'vitest';

declare module 'vitest' {
  export interface ProvidedContext {
    redisUrl: string;
  }
}

/** The Redis every test uses, chosen (or started) once by the global setup. */
export function testRedisUrl(): string {
  return inject('redisUrl');
}
