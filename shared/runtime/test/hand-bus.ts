import type { Transport } from '../src/index.js';

/** A bus in the test's hands: each publish goes to `onPublish`, and `deliver` hands bytes to a subscribed actor. */
export function handBus(onPublish: (bytes: Uint8Array) => void = () => undefined) {
  const handlers = new Map<string, (bytes: Uint8Array, subject: string, sender: string) => void>();
  const transport: Transport = {
    publish: (_target, _from, bytes) => onPublish(bytes),
    subscribe: (target, onBytes) => {
      if ('actor' in target) handlers.set(target.actor, onBytes);
      return { unsubscribe: () => undefined };
    },
    flush: () => Promise.resolve(),
  };
  return {
    transport,
    deliver: (actor: string, bytes: Uint8Array, sender: string) => handlers.get(actor)!(bytes, 'x', sender),
  };
}
