import type { CrmClient, CrmProvider, CrmProviderName } from './port';

/**
 * A CRM provider whose adapter is loaded on the first call a client makes,
 * not when the function starts: the HubSpot client is a large module graph
 * that a cold start would otherwise read, and a job whose lead has no linked
 * contact (or whose tenant disconnected) ends without a call. A load that
 * fails is tried again by the next client.
 */
export function deferredCrmProvider(name: CrmProviderName, load: () => Promise<CrmProvider>): CrmProvider {
  let loading: Promise<CrmProvider> | undefined;
  const provider = (): Promise<CrmProvider> => {
    if (!loading) {
      loading = load();
      loading.catch(() => (loading = undefined));
    }
    return loading;
  };
  return {
    name,
    connect(credentials) {
      let client: Promise<CrmClient> | undefined;
      const real = () => (client ??= provider().then((loaded) => loaded.connect(credentials)));
      return {
        provider: name,
        verify: () => real().then((crm) => crm.verify()),
        getContact: (id, options) => real().then((crm) => crm.getContact(id, options)),
        readContacts: (ids, options) => real().then((crm) => crm.readContacts(ids, options)),
        listContacts: (page, options) => real().then((crm) => crm.listContacts(page, options)),
        listMembers: (listId, page) => real().then((crm) => crm.listMembers(listId, page)),
        createEngagement: (input) => real().then((crm) => crm.createEngagement(input)),
        findEngagement: (contactId, kind, marker) => real().then((crm) => crm.findEngagement(contactId, kind, marker)),
        setLeadStatus: (contactId, status) => real().then((crm) => crm.setLeadStatus(contactId, status)),
      };
    },
  };
}
