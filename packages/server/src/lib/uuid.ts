/**
 * A UUID in text form. Device guids and command ids are UUID columns: a malformed value must be
 * refused before it reaches a query, where PostgreSQL would answer with an error, not "not found".
 */
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const isUuid = (value: string) => UUID.test(value);
