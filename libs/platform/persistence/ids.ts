import { v7 as uuidv7, validate, version } from 'uuid';

/** A new UUIDv7: time-ordered, so ordering by id is creation order. */
export const newId = (): string => uuidv7();

export const isUuid = (value: unknown): value is string => typeof value === 'string' && validate(value);

export const isUuidV7 = (value: unknown): value is string => isUuid(value) && version(value) === 7;
