import { randomInt, randomUUID } from 'node:crypto';
import type { Clock, IdSource } from '../ports/system.js';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

export const systemClock: Clock = { now: () => new Date() };

export const randomIds: IdSource = {
  uuid: () => randomUUID(),
  token(length) {
    let text = '';
    for (let i = 0; i < length; i++) text += BASE62[randomInt(BASE62.length)];
    return text;
  },
};
