/** jest `globalTeardown` of the infra project: see synth-cache-setup.mjs. */
export { stopSynthPrimer as default } from './synth-cache-setup.mjs';
