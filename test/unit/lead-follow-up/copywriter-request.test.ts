import { copywriterRequestSchema } from '../../../shared/lead-follow-up/copywriter-request';
import { DEMO } from './fixtures';

describe('copywriterRequestSchema', () => {
  const request = {
    parentId: '019a3b4c-5d6e-7f80-9a1b-2c3d4e5f6a7b',
    siteId: DEMO.siteId,
    leadId: DEMO.leadId,
    agentId: DEMO.copywriterId,
  };

  it('gives upper-case ids back in lower case', () => {
    const upper = Object.fromEntries(Object.entries(request).map(([key, value]) => [key, value.toUpperCase()]));
    expect(copywriterRequestSchema.parse(upper)).toEqual(request);
  });

  it('still refuses a value that is not a UUID and any extra field', () => {
    expect(copywriterRequestSchema.safeParse({ ...request, agentId: 'B2C3D4E5-not-a-uuid' }).success).toBe(false);
    expect(copywriterRequestSchema.safeParse({ ...request, extra: 1 }).success).toBe(false);
  });
});
