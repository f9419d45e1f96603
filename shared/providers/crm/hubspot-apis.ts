import * as associations from '@hubspot/api-client/lib/codegen/crm/associations/v4/index.js';
import * as contacts from '@hubspot/api-client/lib/codegen/crm/contacts/index.js';
import * as emails from '@hubspot/api-client/lib/codegen/crm/objects/emails/index.js';
import * as notes from '@hubspot/api-client/lib/codegen/crm/objects/notes/index.js';
import type IConfiguration from '@hubspot/api-client/lib/src/configuration/IConfiguration.js';
import { ApiClientConfigurator } from '@hubspot/api-client/lib/src/configuration/ApiClientConfigurator.js';
import { HttpClient } from '@hubspot/api-client/lib/src/services/http/HttpClient.js';
import type { IHttpOptions } from '@hubspot/api-client/lib/src/services/http/IHttpOptions.js';
import { Request } from '@hubspot/api-client/lib/src/services/http/Request.js';

/**
 * The parts of `@hubspot/api-client` the adapter calls, built as the
 * library's own `Client` builds them (each API's generated module with its
 * configuration, `ApiClientConfigurator.getParams`), but only these: the
 * whole `Client` requires every API HubSpot has (4.5 MB bundled, against
 * 0.7 MB for these), which a function's cold start would pay for. The
 * contacts and the engagements every import reads (notes, e-mails, their
 * associations) are loaded with the adapter; calls (only a call's
 * write-back logs one) and list memberships (only an import of a list reads
 * them) on their first use: their generated modules are a third of the
 * rest.
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
  const contactsConfiguration = configure(contacts);
  const notesConfiguration = configure(notes);
  const emailsConfiguration = configure(emails);
  return {
    contacts: { basic: new contacts.BasicApi(contactsConfiguration), batch: new contacts.BatchApi(contactsConfiguration) },
    notes: { basic: new notes.BasicApi(notesConfiguration), batch: new notes.BatchApi(notesConfiguration) },
    emails: { basic: new emails.BasicApi(emailsConfiguration), batch: new emails.BatchApi(emailsConfiguration) },
    /** The calls APIs, their module read on first use (Node keeps it; the APIs themselves are two small objects). */
    calls: async () => {
      const calls = await import('@hubspot/api-client/lib/codegen/crm/objects/calls/index.js');
      const callsConfiguration = configure(calls);
      return { basic: new calls.BasicApi(callsConfiguration), batch: new calls.BatchApi(callsConfiguration) };
    },
    /** The list memberships API, its module read on first use. */
    listMemberships: async () => {
      const lists = await import('@hubspot/api-client/lib/codegen/crm/lists/index.js');
      return new lists.MembershipsApi(configure(lists));
    },
    associations: new associations.BatchApi(configure(associations)),
    /** A request to a path the generated APIs do not cover (the token check), as `Client.apiRequest` sends it. */
    request: (options: IHttpOptions) => HttpClient.send(new Request(config, options)),
  };
}

/** The APIs of {@link hubspotApis}. */
export type HubSpotApis = ReturnType<typeof hubspotApis>;
