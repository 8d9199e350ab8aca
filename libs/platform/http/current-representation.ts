import { SetMetadata } from '@nestjs/common';

/**
 * Loads the representation a PATCH or DELETE route changes, exactly as the GET that serves it
 * answers it (unexpanded): the object whose ETag an If-Match names. `controller` is the route's
 * controller instance, `params` the request's path parameters. A record that does not exist
 * throws the GET's 404 (the write then answers it: a precondition is not evaluated for a request
 * that would not succeed without it).
 */
export type CurrentRepresentationLoader = (
  controller: object,
  params: Readonly<Record<string, string>>,
) => Promise<unknown>;

export const CURRENT_REPRESENTATION_KEY = 'erp:current-representation';

/**
 * Names how a PATCH or DELETE route loads the current representation its If-Match is compared
 * with. Standard routes declare it for their update, delete and PATCH/DELETE actions (the
 * resource's retrieve); a written route without it falls back to its @ApiResource loaded by the
 * last path parameter.
 */
export const CurrentRepresentation = (load: CurrentRepresentationLoader) =>
  SetMetadata(CURRENT_REPRESENTATION_KEY, load);
