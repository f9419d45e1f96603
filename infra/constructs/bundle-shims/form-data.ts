/**
 * What a function bundle gets for the `form-data` package (BUNDLE_ALIASES,
 * bundle-options.ts). `@hubspot/api-client` requires it in its transport
 * only to ask whether a body is a multipart form (`body instanceof
 * FormData`); the integration sends JSON bodies only, so the answer is
 * always no, and the real package would bring the whole MIME type table
 * (`mime-db`, about 130 KiB bundled) into the CRM functions' cold start.
 * Building a form is refused, so a multipart call added later fails loudly
 * instead of sending a body HubSpot cannot read.
 */
export default class FormData {
  constructor() {
    throw new Error('form-data is not bundled: multipart bodies are not sent (infra/constructs/bundle-shims/form-data.ts)');
  }
}
