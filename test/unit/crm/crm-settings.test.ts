import { readCrmSettings } from '../../../shared/crm/settings';

describe('readCrmSettings', () => {
  it('reads LOCAL_CRM as the label of the local CRM, false when unset', () => {
    expect(readCrmSettings({})).toEqual({ local: false });
    expect(readCrmSettings({ HUBSPOT_API_BASE_URL: 'http://127.0.0.1:4100', LOCAL_CRM: 'true' })).toEqual({
      hubspotBaseUrl: 'http://127.0.0.1:4100',
      local: true,
    });
    expect(readCrmSettings({ HUBSPOT_API_BASE_URL: 'https://api.hubapi.com', LOCAL_CRM: 'false' })).toEqual({
      hubspotBaseUrl: 'https://api.hubapi.com',
      local: false,
    });
  });

  it('refuses a LOCAL_CRM that is neither true nor false, naming it', () => {
    expect(() => readCrmSettings({ LOCAL_CRM: 'yes' })).toThrow(/LOCAL_CRM/);
  });
});
