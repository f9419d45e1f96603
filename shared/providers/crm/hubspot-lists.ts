import * as lists from '@hubspot/api-client/lib/codegen/crm/lists/index.js';

/**
 * `@hubspot/api-client`'s generated lists module, which only an import of a
 * list reads: hubspot-apis.ts loads this file on first use. The library is
 * CommonJS, and a function bundle's `import()` of it straight away is a
 * chunk whose one export is `default`; imported here, statically, its named
 * exports come through as the adapter's other modules' do.
 */
export { lists };
