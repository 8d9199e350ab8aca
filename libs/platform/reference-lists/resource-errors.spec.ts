import { DomainError } from '../errors/domain-error';
import { refuseNulls } from './resource-errors';

describe('refuseNulls', () => {
  it('refuses null on required fields only, naming the field', () => {
    expect(() => refuseNulls({ email: null }, ['email'])).not.toThrow();
    expect(() => refuseNulls({ name: 'x' }, [])).not.toThrow();
    const thrown = (() => {
      try {
        refuseNulls({ name: null }, ['email']);
      } catch (error) {
        return error;
      }
      return undefined;
    })();
    expect(thrown).toBeInstanceOf(DomainError);
    expect(thrown).toMatchObject({ code: 'parameter_invalid', param: 'name' });
  });
});
