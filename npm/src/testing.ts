/**
 * The package with its test hooks: this package's own tests import it from
 * `test-dist/testing.js`, a bundle of its own that is never published (the
 * published `dist/index.js` has no hooks). Not part of the API.
 */
export * from './index.js';
export {
  _injectTrapForTests as injectTrap,
  _useCoreModuleForTests as useCoreModule,
  call,
  callProxy,
  instantiationCount,
} from './engine.js';
