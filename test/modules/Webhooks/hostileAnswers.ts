/** Hook answers that reach for the prototype chain (issue 25), for the in-process and server-process tests. */
import type { Answer } from '../../support/webhookReceiver.js';

/** The answers, and a few more of the same kind. */
export const HOSTILE_ANSWERS: readonly [string, Answer][] = [
  ['recommendation/__proto__/x', { json: [{ op: 'replace', path: 'recommendation/__proto__/x', value: 'polluted' }] }],
  [
    'recommendation/__proto__/note',
    { json: [{ op: 'replace', path: 'recommendation/__proto__/note', value: 'polluted-note' }] },
  ],
  [
    'recommendation/items/__proto__/x',
    { json: [{ op: 'replace', path: 'recommendation/items/__proto__/x', value: 'polluted' }] },
  ],
  [
    'remove recommendation/items/0/__proto__/hasOwnProperty',
    { json: [{ op: 'remove', path: 'recommendation/items/0/__proto__/hasOwnProperty' }] },
  ],
  [
    'recommendation/constructor/prototype/x',
    { json: [{ op: 'replace', path: 'recommendation/constructor/prototype/x', value: 'polluted' }] },
  ],
  ['recommendation/toString', { json: [{ op: 'replace', path: 'recommendation/toString', value: 'x' }] }],
  [
    'a value with a __proto__ key',
    { raw: '[{"op":"replace","path":"recommendation/items/0/note","value":{"__proto__":{"x":"polluted"}}}]' },
  ],
];
