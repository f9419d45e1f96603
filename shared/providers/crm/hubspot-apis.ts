import * as associations from '@hubspot/api-client/lib/codegen/crm/associations/v4/index.js';
import * as objects from '@hubspot/api-client/lib/codegen/crm/objects/index.js';
import type IConfiguration from '@hubspot/api-client/lib/src/configuration/IConfiguration.js';
import { ApiClientConfigurator } from '@hubspot/api-client/lib/src/configuration/ApiClientConfigurator.js';
import { HttpClient } from '@hubspot/api-client/lib/src/services/http/HttpClient.js';
import type { IHttpOptions } from '@hubspot/api-client/lib/src/services/http/IHttpOptions.js';
import { Request } from '@hubspot/api-client/lib/src/services/http/Request.js';

/**
 * The parts of `@hubspot/api-client` the adapter calls, built as the
 * library's own `Client` builds them (each API's generated module with its
 * configuration, `ApiClientConfigurator.getParams`), but only these: the
 * whole `Client` requires every API HubSpot has (4.5 MB bundled), which a
 * function's cold start would pay for. Contacts and engagements (notes,
 * e-mails, calls) are read and written through the library's generic CRM
 * objects API (`client.crm.objects`: `/crm/v3/objects/{objectType}`, the
 * paths and bodies of the per-object APIs, whose generated modules each
 * repeat the same models): one module instead of four. Associations are
 * loaded with it (every import reads a contact's history); list
 * memberships (only an import of a list reads them) on first use.
 * No decorators are applied: the library keeps them in one process-wide
 * service, and its retry ignores `Retry-After` (hubspot-call.ts retries).
 */
export function hubspotApis(config: IConfiguration) {
  const configure = <Server, Configuration>(api: {
    createConfiguration: (params: never) => Configuration;
    ServerConfiguration: Server;
    Observable: unknown;
  }): Configuration =>
    api.createConfiguration(
      ApiClientConfigurator.getParams(config, api.ServerConfiguration as never, api.Observable as never, api.Observable as never) as never,
    );
  const objectsConfiguration = configure(objects);
  return {
    /** Any CRM object type's records (`contacts`, `notes`, `emails`, `calls`): its type is each call's first argument. */
    objects: { basic: new objects.BasicApi(objectsConfiguration), batch: new objects.BatchApi(objectsConfiguration) },
    /** The list memberships API, its module read on first use. */
    listMemberships: async () => {
      const { lists } = await import('./hubspot-lists');
      return new lists.MembershipsApi(configure(lists));
    },
    associations: new associations.BatchApi(configure(associations)),
    /** A request to a path the generated APIs do not cover (the token check), as `Client.apiRequest` sends it. */
    request: (options: IHttpOptions) => HttpClient.send(new Request(config, options)),
  };
}

/** The APIs of {@link hubspotApis}. */
export type HubSpotApis = ReturnType<typeof hubspotApis>;
