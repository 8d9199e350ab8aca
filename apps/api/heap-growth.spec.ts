import v8 from 'node:v8';
import { HEAP_GROWING_PERCENT, limitHeapGrowth } from './heap-growth';

describe('heap growth limit of the API process', () => {
  it('sets V8 heap growing percent at run time', () => {
    const spy = jest.spyOn(v8, 'setFlagsFromString').mockImplementation(() => undefined);
    try {
      limitHeapGrowth();
      expect(spy).toHaveBeenCalledWith(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
    } finally {
      spy.mockRestore();
    }
  });
});
