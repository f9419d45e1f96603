import { availableChannels, configuredChannels, leadReach, messagingNumber } from '../../../shared/lead-follow-up/channels';
import type { Lead, Site } from '../../../shared/sites/schema';

const site = (channels: Site['channels']): Site => ({ id: 's', name: 'Site', ...(channels ? { channels } : {}) });
const lead = (fields: Partial<Lead> = {}): Lead => ({ id: 'l', name: 'Lead', ...fields });

describe('configuredChannels', () => {
  it('counts a channel only when present with enabled: true', () => {
    expect(configuredChannels(site({ email: { enabled: true }, messaging_app: { enabled: true } }))).toEqual(['email', 'messaging_app']);
    expect(configuredChannels(site({ email: { enabled: false }, messaging_app: { enabled: true } }))).toEqual(['messaging_app']);
    expect(configuredChannels(site({}))).toEqual([]);
    expect(configuredChannels(site(undefined))).toEqual([]);
  });
});

describe('availableChannels', () => {
  const both = ['email', 'messaging_app'] as const;

  it('gives email for a lead with an address and messaging_app for one with a phone, plus notification and web', () => {
    expect(availableChannels(both, leadReach(lead({ email: 'a@b.example', phone: '+14155550123' }), undefined))).toEqual([
      'email',
      'messaging_app',
      'notification',
      'web',
    ]);
  });

  it('leaves out a channel the lead cannot be reached on', () => {
    expect(availableChannels(both, leadReach(lead({ email: 'a@b.example' }), undefined))).toEqual(['email', 'notification', 'web']);
    expect(availableChannels(both, leadReach(lead({ phone: '+14155550123' }), undefined))).toEqual([
      'messaging_app',
      'notification',
      'web',
    ]);
  });

  it('leaves out a channel the site has not configured', () => {
    expect(availableChannels(['messaging_app'], leadReach(lead({ email: 'a@b.example', phone: '+1415555' }), undefined))).toEqual([
      'messaging_app',
      'notification',
      'web',
    ]);
  });

  it('lets phone_number stand in for a missing stored phone', () => {
    expect(availableChannels(both, leadReach(lead(), '+14155550123'))).toEqual(['messaging_app', 'notification', 'web']);
  });

  it('ignores blank stored contact data', () => {
    expect(leadReach(lead({ email: '  ', phone: '' }), undefined)).toEqual({ hasEmail: false, hasPhone: false });
  });
});

describe('messagingNumber', () => {
  it('prefers the valid phone_number over the stored phone', () => {
    expect(messagingNumber(lead({ phone: '+14155550123' }), '+14155550999')).toBe('+14155550999');
    expect(messagingNumber(lead({ phone: '+14155550123' }), undefined)).toBe('+14155550123');
    expect(messagingNumber(lead(), undefined)).toBeUndefined();
  });
});
