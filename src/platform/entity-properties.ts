import { p } from '@mikro-orm/core';
import { uuidv7 } from './ids.ts';

/** Shared column definitions: a UUIDv7 key and the creation/update stamps (timestamptz). */
export const idProperty = () => p.uuid().primary().onCreate(() => uuidv7());
export const createdAtProperty = () => p.datetime().onCreate(() => new Date());
export const updatedAtProperty = () => p.datetime().onCreate(() => new Date()).onUpdate(() => new Date());
/** Identifiers compared case-insensitively, stored in their original casing (decisions.md). */
export const identifierProperty = () => p.string().columnType('citext');
