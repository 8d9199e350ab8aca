import { RerunningTask } from './rerunning-task';

/** A round that waits until released, counting how many began. */
function gatedRounds() {
  let began = 0;
  const releases: (() => void)[] = [];
  const round = () =>
    new Promise<void>((resolve) => {
      began += 1;
      releases.push(resolve);
    });
  const releaseNext = async () => {
    while (releases.length === 0) await new Promise((r) => setImmediate(r));
    releases.shift()!();
  };
  return { round, releaseNext, began: () => began };
}

describe('RerunningTask', () => {
  it('runs one round at a time, and starts made during a round ask for one more round only', async () => {
    const gate = gatedRounds();
    const task = new RerunningTask(gate.round, () => undefined);
    task.start();
    task.start();
    task.start();
    expect(gate.began()).toBe(1);
    await gate.releaseNext();
    await gate.releaseNext();
    await task.idle();
    expect(gate.began()).toBe(2);
  });

  it('hands a failed round to onError and runs again on the next start', async () => {
    const errors: unknown[] = [];
    let calls = 0;
    const task = new RerunningTask(
      async () => {
        calls += 1;
        if (calls === 1) throw new Error('first round failed');
      },
      (error) => errors.push(error),
    );
    task.start();
    await task.idle();
    expect(errors).toEqual([new Error('first round failed')]);
    task.start();
    await task.idle();
    expect(calls).toBe(2);
    expect(errors).toHaveLength(1);
  });

  it('waits for the running round when stopped, then starts nothing', async () => {
    const gate = gatedRounds();
    const task = new RerunningTask(gate.round, () => undefined);
    task.start();
    task.start();
    const stopped = task.stop();
    await gate.releaseNext();
    await stopped;
    task.start();
    await task.idle();
    expect(gate.began()).toBe(1);
  });
});
