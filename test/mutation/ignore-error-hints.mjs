// A Stryker ignorer: the `hint` of an error (`new SalesError('invalid_state', { hint: `...` })`)
// is prose for the reader of the error envelope, not a rule; mutating its wording, or the
// expressions that only format it, says nothing about the business logic. The error's code,
// param and details stay mutated.
import { PluginKind, declareValuePlugin } from '@stryker-mutator/api/plugin';

export const strykerPlugins = [
  declareValuePlugin(PluginKind.Ignore, 'error-hints', {
    shouldIgnore(path) {
      const node = path.node;
      if (node.type !== 'ObjectProperty' || node.computed) return undefined;
      const key = node.key.type === 'Identifier' ? node.key.name : node.key.value;
      return key === 'hint' ? 'The hint of an error is explanatory text, not a rule.' : undefined;
    },
  }),
];
