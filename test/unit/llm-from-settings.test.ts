import * as z from 'zod/mini';
import { lazyLlm, LLM_REFRESH_MS, ProviderNotConfiguredError } from '../../shared/providers/llm/from-settings';
import type { SecretSource } from '../../shared/platform/secrets';

describe('lazyLlm', () => {
  it('uses the offline writer until a key appears, and picks the key up after the refresh time', async () => {
    let key: string | undefined = undefined;
    let reads = 0;
    const secrets: SecretSource = {
      async read() {
        reads += 1;
        return { OPENAI_API_KEY: key };
      },
    };
    let now = 0;
    const llm = lazyLlm(secrets, {}, { allowOffline: true }, () => now);
    expect((await llm()).generatedBy).toBe('offline');
    key = 'sk-filled-later';
    expect((await llm()).generatedBy).toBe('offline');
    expect(reads).toBe(1);
    now = LLM_REFRESH_MS + 1;
    expect((await llm()).generatedBy).toBe('openai');
    expect(reads).toBe(2);
  });

  it('reads again after a failed lookup', async () => {
    let fail = true;
    const secrets: SecretSource = {
      async read() {
        if (fail) throw new Error('Secrets Manager unreachable');
        return { OPENAI_API_KEY: undefined };
      },
    };
    const llm = lazyLlm(secrets, {}, { allowOffline: true });
    await expect(llm()).rejects.toThrow('unreachable');
    fail = false;
    expect((await llm()).generatedBy).toBe('offline');
  });

  it('fails at once on a malformed base URL', () => {
    expect(() => lazyLlm({ read: async () => ({}) }, { OPENAI_BASE_URL: 'not a url' }, { allowOffline: true })).toThrow(/OPENAI_BASE_URL/);
  });

  it('never falls back to the offline writer where offline providers are not allowed (AWS without opt-in)', async () => {
    const llm = lazyLlm({ read: async () => ({ OPENAI_API_KEY: undefined }) }, {}, { allowOffline: false });
    await expect(llm()).rejects.toThrow(ProviderNotConfiguredError);
    await expect(llm()).rejects.toThrow(/ALLOW_OFFLINE_PROVIDERS/);
  });

  it('reports every answer the offline writer gives', async () => {
    let reported = 0;
    const llm = await lazyLlm({ read: async () => ({}) }, {}, { allowOffline: true, onOffline: () => (reported += 1) })();
    const request = {
      schemaName: 'x',
      schema: z.object({ ok: z.boolean() }),
      messages: [],
      offline: () => ({ ok: true }),
    };
    await llm.completeJson(request);
    await llm.completeJson(request);
    expect(reported).toBe(2);
  });
});
